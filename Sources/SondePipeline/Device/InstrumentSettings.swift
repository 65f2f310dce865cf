public import SondeCore

/// A real instrument a user paired (issue 46): an ALSA capture device or an acquisition
/// program writing raw samples to its standard output. The simulated pump needs none of
/// this; `PairedDevice.instrument` is nil for it.
public struct InstrumentSettings: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A libasound PCM: `hw:1,0`, `plughw:CARD=Mic`, a name from the ALSA configuration.
        case alsa
        /// A command line run with `/bin/sh -c` for each capture; its stdout is the samples.
        case command
    }

    public var kind: Kind
    /// The PCM name, or the command line.
    public var address: String
    public var sampleRate: Int
    public var channels: Int
    /// The interleaved samples' type (ALSA's S16_LE is `i16le`, ...), as `--sample-type` names it.
    public var sampleType: SampleFormat

    public init(kind: Kind, address: String, sampleRate: Int, channels: Int, sampleType: SampleFormat) {
        self.kind = kind
        self.address = address
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
    }

    /// `ALSA hw:1,0, 2 channels at 48 kHz`: how Main and `device status` name it.
    public var description: String {
        let what = kind == .alsa ? "ALSA \(address)" : "command `\(address)`"
        let rate =
            sampleRate % 1000 == 0 ? "\(sampleRate / 1000) kHz" : "\(Double(sampleRate).compactDescription) Hz"
        return "\(what), \(channels) channel\(channels == 1 ? "" : "s") at \(rate), \(sampleType.rawValue)"
    }

    /// A stable id: `alsa-hw:1,0`, or `command-` and 8 hex digits of the command line's hash.
    public var deviceID: String {
        switch kind {
        case .alsa: return "alsa-\(address)"
        case .command:
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
            for byte in address.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            let hex = String(hash & 0xFFFF_FFFF, radix: 16)
            return "command-" + String(repeating: "0", count: 8 - hex.count) + hex
        }
    }

    /// Reads `json`'s object (inside `device.json`).
    init(reading reader: inout JSONReader<StrtodNumbers>) throws {
        var kind: Kind?
        var address: String?
        var sampleRate: Int?
        var channels: Int?
        var sampleType: SampleFormat?
        try reader.object { key, reader in
            switch key {
            case "kind": kind = Kind(rawValue: try reader.string())
            case "address": address = try reader.string()
            case "sampleRate": sampleRate = try reader.integer()
            case "channels": channels = try reader.integer()
            case "sampleType": sampleType = SampleFormat(rawValue: try reader.string())
            default: try reader.skipValue()
            }
        }
        guard let kind, let address, let sampleRate, let channels, let sampleType else {
            throw reader.failure("an instrument without its kind, address, rate, channels or sample type")
        }
        self.init(kind: kind, address: address, sampleRate: sampleRate, channels: channels, sampleType: sampleType)
    }

    var json: JSONValue {
        .object([
            "kind": .string(kind.rawValue), "address": .string(address), "sampleRate": .verbatim(String(sampleRate)),
            "channels": .verbatim(String(channels)), "sampleType": .string(sampleType.rawValue),
        ])
    }
}
