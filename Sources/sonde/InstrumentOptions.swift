import ArgumentParser
import SondeKit
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

    /// The instrument these options and `--rate`, `--channels`, `--sample-type` describe, or nil.
    func settings(input: InputOptions) throws -> InstrumentSettings? {
        try InstrumentChoice(
            alsa: alsa, command: command, format: format, rate: input.rate, channels: input.channels,
            sampleType: input.sampleType
        ).settings()
    }
}
