import Foundation
public import SondeCore
public import SondePipeline

/// The real instrument `sonde device pair` is given (issue 46): an ALSA capture device or a
/// command whose standard output is the samples, with the rate, channels and sample type it
/// delivers. Read here from the options' texts, so every refusal is tested in process and
/// the web's pairing can read the same fields the same way.
public struct InstrumentChoice: Sendable {
    /// `--alsa PCM`.
    public var alsa: String?
    /// `--command COMMAND`.
    public var command: String?
    /// `--format`, ALSA's name of the sample type.
    public var format: String?
    public var rate: Double?
    public var channels: Int?
    /// `--sample-type`.
    public var sampleType: SampleFormat?

    public init(
        alsa: String?, command: String?, format: String?, rate: Double?, channels: Int?, sampleType: SampleFormat?
    ) {
        (self.alsa, self.command, self.format) = (alsa, command, format)
        (self.rate, self.channels, self.sampleType) = (rate, channels, sampleType)
    }

    /// ALSA's names for the sample types.
    public static let formats: [String: SampleFormat] = [
        "S16_LE": .i16le, "S32_LE": .i32le, "FLOAT_LE": .f32le, "FLOAT64_LE": .f64le,
    ]

    /// The instrument described, or nil when neither `--alsa` nor `--command` is given.
    /// - Throws: `SondeError(.invalidArgument)` for both kinds at once, a missing or
    ///   unusable rate, channel count or sample type, or `--format` without `--alsa`.
    public func settings() throws -> InstrumentSettings? {
        if alsa != nil, command != nil {
            throw SondeError(.invalidArgument, "--alsa and --command cannot be combined; pair one device")
        }
        if format != nil, alsa == nil {
            throw SondeError(.invalidArgument, "--format applies to --alsa; a command's samples take --sample-type")
        }
        guard let address = alsa ?? command else { return nil }
        let option = alsa != nil ? "--alsa" : "--command"
        guard !address.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SondeError(.invalidArgument, "\(option): expected a device name or a command, not an empty text")
        }
        guard let rate else {
            throw SondeError(.invalidArgument, "\(option) needs --rate HZ: the rate the device delivers")
        }
        guard rate == rate.rounded(), SampleLimits.rates.contains(rate), rate <= Double(Int32.max) else {
            throw SondeError(.invalidArgument, "--rate \(rate.compactDescription): expected a whole number of Hz")
        }
        guard let channels else {
            throw SondeError(.invalidArgument, "\(option) needs --channels N: the interleaved channels it delivers")
        }
        return InstrumentSettings(
            kind: alsa != nil ? .alsa : .command, address: address, sampleRate: Int(rate), channels: channels,
            sampleType: try type())
    }

    /// ALSA: `--format` or `--sample-type` (not both), else S32_LE; a command: `--sample-type`.
    private func type() throws -> SampleFormat {
        guard alsa != nil else {
            guard let sampleType else {
                throw SondeError(
                    .invalidArgument, "--command needs --sample-type (i16le, i32le, f32le, f64le): what it writes")
            }
            return sampleType
        }
        if sampleType != nil, format != nil {
            throw SondeError(.invalidArgument, "--format and --sample-type name the same thing; give one")
        }
        guard let format else { return sampleType ?? .i32le }
        guard let named = Self.formats[format.uppercased()] else {
            throw SondeError(.invalidArgument, "--format \(format): expected S16_LE, S32_LE, FLOAT_LE or FLOAT64_LE")
        }
        return named
    }
}
