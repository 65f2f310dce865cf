/// One capture device as `sonde device list` shows it: where it is, its names, and what
/// it accepts (or why that is unknown).
public struct ALSADeviceInfo: Sendable, Equatable {
    /// Whether the device could be asked what it accepts.
    public enum Availability: Sendable, Equatable {
        case available(ALSACapabilities)
        /// Another program holds it open (EBUSY).
        case busy
        /// It could not be opened for another reason: libasound's words.
        case unavailable(String)
    }

    /// The card's index, as in `hw:CARD,DEVICE`.
    public var card: Int
    /// The PCM device's index on its card.
    public var device: Int
    /// The card's name ("USB Audio CODEC").
    public var cardName: String
    /// The PCM's name ("USB Audio").
    public var pcmName: String
    public var availability: Availability

    public init(card: Int, device: Int, cardName: String, pcmName: String, availability: Availability) {
        self.card = card
        self.device = device
        self.cardName = cardName
        self.pcmName = pcmName
        self.availability = availability
    }

    /// The name to capture from: `hw:1,0`.
    public var pcm: String { "hw:\(card),\(device)" }
}
