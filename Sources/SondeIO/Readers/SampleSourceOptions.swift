public import SondeCore

/// What the command line says about inputs whose files do not (fully) describe themselves.
///
/// Every field is optional: `nil` means "take it from the file", and a file that cannot
/// supply it (a raw file has no rate) is rejected when it is opened.
public struct SampleSourceOptions: Sendable, Equatable {
    /// Sample rate in Hz (`--rate`); overrides the rate of a WAV header or a CSV time column.
    /// Must be finite and > 0.
    public var sampleRate: Double?

    /// Interleaved channels of a raw input (`--channels`, default 1). For CSV and audio
    /// files, which know their channel count, a different value is an error.
    public var channels: Int?

    /// Reads the input as raw interleaved samples of this encoding (`--sample-type`),
    /// whatever its name says.
    public var sampleType: SampleFormat?

    public init(sampleRate: Double? = nil, channels: Int? = nil, sampleType: SampleFormat? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
    }
}

extension SampleSourceOptions {
    /// Rejects values no reader can use, naming the option.
    func validate() throws {
        if let sampleRate, !(sampleRate > 0 && sampleRate.isFinite) {
            throw SondeError(.invalidArgument, "--rate \(sampleRate): expected a positive number of Hz")
        }
        if let channels, !(1...Self.maximumChannels).contains(channels) {
            throw SondeError(
                .invalidArgument, "--channels \(channels): expected a count from 1 to \(Self.maximumChannels)")
        }
    }

    /// More channels than any real recording has; a larger count is a typo.
    static let maximumChannels = 65_536
}
