import ArgumentParser
import SondeBatch
import SondeCore
import SondeIO
import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

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

    func run() async throws {
        try await reportingErrors {
            let settings = try framing.settings()
            let list = try inputList.sampleInputs(sampleType: input.sampleType)
            let options = input.sampleSourceOptions()
            let outputPath = output == "-" ? nil : output
            if let outputPath, let input = list.input(sameFileAs: outputPath) {
                throw SondeError(
                    .invalidArgument,
                    "-o \(outputPath) is the input '\(input.path)': writing it would destroy the input")
            }
            let outputFormat = format ?? outputPath.flatMap(SpectrumWriter.Format.init(inferredFrom:)) ?? .csv
            // The first input is opened and checked before anything is written.
            let first = try FileInputs.open(list.inputs[0], settings: settings, options: options)
            let inputs = FileInputs.lazyInputs(
                list.inputs, first: first, columns: [], settings: settings, options: options)
            let averager = SpectrumAverager()
            var graphOptions = engine.graphOptions()
            graphOptions.spectrumTap = averager
            let run = GraphRun(settings: settings, options: graphOptions, cpuReport: engine.cpuReport)
            let destination =
                try outputPath.map { try OutputFile(atomicallyReplacing: $0) }
                ?? OutputFile(standardOutputFlushing: .whenFull)
            do {
                let sink = SpectrumSink(
                    averager: averager,
                    writer: SpectrumWriter(format: outputFormat, output: destination, includesFile: list.namesFiles),
                    frameLength: settings.frameLength)
                _ = try await run.run(inputs, into: sink)
                if let status = run.exitStatus {
                    // A spectrum of part of an input would pass for the whole one.
                    destination.abandon()
                    Diagnostics.say("sonde spectrum: \(run.interruptedText); no spectrum written")
                    throw ExitCode(status)
                }
                try sink.finish()
                try destination.commit()
                if !quiet { for note in sink.notes { Diagnostics.note(note) } }
            } catch {
                destination.abandon()
                throw error
            }
        }
    }
}
