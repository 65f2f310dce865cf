/// What a sample source delivers: interleaved frames of `channelNames.count` Doubles at
/// `sampleRate` Hz. `timeOffset` is added to every record's time (the first value of a
/// CSV time column; 0 otherwise).
public struct StreamFormat: Sendable, Equatable {
    public var sampleRate: Double
    public var channelNames: [String]
    public var timeOffset: Double

    public init(sampleRate: Double, channelNames: [String], timeOffset: Double = 0) {
        self.sampleRate = sampleRate
        self.channelNames = channelNames
        self.timeOffset = timeOffset
    }

    public var channelCount: Int { channelNames.count }
}
