import ArgumentParser
import SondeCore
import SondeDSP
import SondeIO
import SondeKit

struct SpectrumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spectrum",
        abstract: "Averaged power spectrum (Welch) of each input and channel.",
        discussion: """
            The mean over every complete window of the one-sided density PSD P[k] \
            (docs/features.md sections 5 and 8, in sonde's repository; scipy.signal.welch with \
            window='hann', nperseg=N, noverlap=N-H, detrend=False): one row per frequency bin, \
            `frequency` in Hz then one column per channel in units²/Hz. Windows, hop and \
            filters as in `sonde process`; inputs as there. Several inputs give one table with a \
            leading `file` column. An input shorter than one window is an error.

            Examples:
              # The spectrum of a WAV file, 4096-sample windows, CSV to the terminal
              sonde spectrum sample-data/motor.wav --window 4096

              # A high-passed 2-channel raw recording, as JSON, into a file (written atomically)
              sonde spectrum bearing.f32le --rate 25600 --channels 2 --sample-type f32le \\
                  --filter highpass:10 -o bearing-spectrum.json

            With --envelope, the squared-envelope spectrum instead (docs/features.md section 9, \
            the one `sonde diagnose` reads the defect lines in): Welch of |c|² minus its mean, c \
            the band signal of --band, periodic Hann segments of P samples overlapping by half; P \
            the smallest power of two whose resolution is at most fs/N (N = --window). --band \
            auto (the default) takes each channel's best band of a fast kurtogram (--levels, 6), \
            decimated as the kurtogram does; --band LO-HI an ideal band-pass at the input's rate. \
            A note on standard error names each channel's band. Channels whose bands give \
            different bins share the table: an empty CSV field (JSON null) where a channel has no \
            bin. The whole input is held in memory; --hop, --filter, --ring-capacity and \
            --cpu-report do not apply and are refused.

              # The envelope spectrum of the kurtogram's best band, 0.2 Hz bins at 25.6 kHz
              sonde spectrum bearing.f32le --rate 25600 --channels 2 --sample-type f32le \\
                  --envelope --window 131072 -o envelope.csv

              # A band of your choice, as JSON
              sonde spectrum 105.mat --variables X105_DE_time --rate 12000 --envelope --band 2000-4000 --format json
            """
    )

    @OptionGroup(title: "Inputs")
    var inputList: InputListOptions

    @OptionGroup(title: "Framing")
    var framing: FramingOptions

    @OptionGroup(title: "Input")
    var input: InputOptions

    @OptionGroup(title: "Engine")
    var engine: EngineOptions

    @Option(name: .long, help: "Output format (default: from the -o extension, else csv).")
    var format: SpectrumWriter.Format?

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Output file; '-' or none for standard output.", valueName: "OUT"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No notes on standard error.")
    var quiet = false

    @Flag(name: .long, help: "The squared-envelope spectrum of a band (--band) instead of the power spectrum.")
    var envelope = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --envelope: auto (default: the kurtogram's best band, per channel) or LO-HI in Hz.",
            valueName: "BAND"))
    var band: String?

    @Option(
        name: .long, help: ArgumentHelp("With --envelope --band auto: kurtogram levels, 1 to 12 (6).", valueName: "L"))
    var levels: Int?

    func validate() throws {
        guard envelope else {
            if band != nil { throw ValidationError("--band chooses the envelope's band: give --envelope too") }
            if levels != nil { throw ValidationError("--levels is the kurtogram's, for --envelope --band auto") }
            return
        }
        if framing.hop != nil {
            throw ValidationError("--hop does not apply to --envelope: its segments always overlap by half")
        }
        if !framing.filter.isEmpty {
            throw ValidationError("--filter does not apply to --envelope: choose the band with --band LO-HI")
        }
        if engine.ringCapacity != EngineOptions.defaultRingCapacity {
            throw ValidationError("--ring-capacity does not apply to --envelope: it holds each input in memory")
        }
        if engine.cpuReport { throw ValidationError("--cpu-report does not apply to --envelope") }
        guard let choice = envelopeBand else {
            throw ValidationError("--band \(band ?? ""): expected auto or LO-HI in Hz (2000-4000)")
        }
        if case .range = choice, levels != nil {
            throw ValidationError("--levels is the kurtogram's: it applies to --band auto only")
        }
        if let levels, !(1...12).contains(levels) { throw ValidationError("--levels \(levels): expected 1 to 12") }
    }

    /// The band of --envelope; nil when --band cannot be read.
    var envelopeBand: EnvelopeBand? { EnvelopeBand(parsing: band ?? "auto", levels: levels ?? 6) }

    func run() async throws {
        try await reportingErrors {
            let settings = try framing.settings()  // also checks --window for --envelope
            let list = try inputList.sampleInputs(sampleType: input.sampleType)
            let outputPath = output == "-" ? nil : output
            guard !envelope else {
                var run = EnvelopeSpectrumRun(
                    inputs: list, sourceOptions: input.sampleSourceOptions(), outputPath: outputPath, format: format,
                    band: envelopeBand ?? .auto(levels: 6), window: framing.window, jobs: engine.jobs)
                run.quiet = quiet
                return try await run.run()
            }
            var run = SpectrumRun(
                inputs: list, settings: settings, sourceOptions: input.sampleSourceOptions(), outputPath: outputPath,
                format: format, graph: engine.graphOptions())
            (run.cpuReport, run.quiet) = (engine.cpuReport, quiet)
            guard case .interrupted(let status, let text) = try await run.run() else { return }
            Diagnostics.say("sonde spectrum: \(text); no spectrum written")
            throw ExitCode(status)
        }
    }
}
