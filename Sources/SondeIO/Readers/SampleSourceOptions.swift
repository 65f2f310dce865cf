public import SondeCore

/// What the command line says about inputs whose files do not (fully) describe themselves.
///
/// Every field is optional: `nil` means "take it from the file", and a file that cannot
/// supply it (a raw file has no rate) is rejected when it is opened.
public struct SampleSourceOptions: Sendable, Equatable {
    /// Sample rate in Hz (`--rate`); overrides the rate of a WAV header or a CSV time column.
    /// Must be within `SampleLimits.rates`.
    public var sampleRate: Double?

    /// Interleaved channels of a raw input (`--channels`, default 1). For CSV and audio
    /// files, which know their channel count, a different value is an error.
    public var channels: Int?

    /// Reads the input as raw interleaved samples of this encoding (`--sample-type`),
    /// whatever its name says.
    public var sampleType: SampleFormat?

    /// Which arrays of a MATLAB, HDF5 or TDMS input are channels, and where its rate is.
    public var container: ContainerOptions

    public init(
        sampleRate: Double? = nil, channels: Int? = nil, sampleType: SampleFormat? = nil,
        container: ContainerOptions = ContainerOptions()
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
        self.container = container
    }
}

extension SampleSourceOptions {
    /// Rejects values no reader can use, naming the option.
    func validate() throws {
        if let sampleRate, !SampleLimits.rates.contains(sampleRate) {
            throw SondeError(
                .invalidArgument,
                "--rate \(sampleRate.compactDescription): expected a sample rate from \(SampleLimits.ratesText)")
        }
        if let channels, !(1...Self.maximumChannels).contains(channels) {
            throw SondeError(
                .invalidArgument, "--channels \(channels): expected a count from 1 to \(Self.maximumChannels)")
        }
        _ = try container.arrayOrientation()
    }

    /// libsndfile's limit (`SF_MAX_CHANNELS`), and more than any real recording has; each
    /// channel costs buffers sized by the read block (65,536 frames), so 65,536 channels
    /// would ask for 32 GiB.
    static let maximumChannels = 1024
}
