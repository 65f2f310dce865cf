import ArgumentParser
import SondeCore
import SondePipeline

/// `device pair`'s real instruments (issue 46): an ALSA capture device or a command whose
/// standard output is the samples; both take `--rate`, `--channels` and a sample type.
struct InstrumentOptions: ParsableArguments {
    @Option(
        name: .customLong("alsa"),
        help: ArgumentHelp(
            "An ALSA capture device (see sonde device list): hw:1,0, plughw:CARD=Mic,0, ...", valueName: "PCM"))
    var alsa: String?

    @Option(
        name: .customLong("command"),
        help: ArgumentHelp(
            "An acquisition program writing raw interleaved samples to stdout (run with /bin/sh -c for each capture).",
            valueName: "COMMAND"))
    var command: String?

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp("With --alsa: S16_LE, S32_LE, FLOAT_LE or FLOAT64_LE (default S32_LE).", valueName: "F"))
    var format: String?

    /// ALSA's names for the sample types.
    static let formats: [String: SampleFormat] = [
        "S16_LE": .i16le, "S32_LE": .i32le, "FLOAT_LE": .f32le, "FLOAT64_LE": .f64le,
    ]

    /// True when a real instrument is described.
    var describesInstrument: Bool { alsa != nil || command != nil }

    /// The instrument these options and `--rate`, `--channels`, `--sample-type` describe, or nil.
    func settings(input: InputOptions) throws -> InstrumentSettings? {
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
        guard let rate = input.rate else {
            throw SondeError(.invalidArgument, "\(option) needs --rate HZ: the rate the device delivers")
        }
        guard rate == rate.rounded(), SampleLimits.rates.contains(rate), rate <= Double(Int32.max) else {
            throw SondeError(.invalidArgument, "--rate \(rate.compactDescription): expected a whole number of Hz")
        }
        guard let channels = input.channels else {
            throw SondeError(.invalidArgument, "\(option) needs --channels N: the interleaved channels it delivers")
        }
        let type: SampleFormat
        if alsa != nil {
            if input.sampleType != nil, format != nil {
                throw SondeError(.invalidArgument, "--format and --sample-type name the same thing; give one")
            }
            if let format {
                guard let named = Self.formats[format.uppercased()] else {
                    throw SondeError(
                        .invalidArgument, "--format \(format): expected S16_LE, S32_LE, FLOAT_LE or FLOAT64_LE")
                }
                type = named
            } else {
                type = input.sampleType ?? .i32le
            }
        } else {
            guard let given = input.sampleType else {
                throw SondeError(
                    .invalidArgument, "--command needs --sample-type (i16le, i32le, f32le, f64le): what it writes")
            }
            type = given
        }
        return InstrumentSettings(
            kind: alsa != nil ? .alsa : .command, address: address, sampleRate: Int(rate), channels: channels,
            sampleType: type)
    }
}
