import ArgumentParser
import SondeCore
import SondeIO
import SondePipeline

struct ProcessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Measure recorded sample files, window by window.",
        discussion: """
            Inputs: CSV (header and a time/t/timestamp column optional), WAV/FLAC/AIFF, raw \
            interleaved f32le/f64le/i16le/i32le (.f32, .f64, .i16, .i32 or --sample-type), \
            - for standard input, a directory (its sample files, sorted) or a quoted glob \
            ('data/*.wav'). Several inputs give one output with a leading `file` column, in \
            argument order; up to --jobs of them are worked on at once.

            Examples:
              # Every feature of a WAV file, 1024-sample windows, CSV to the terminal
              sonde process sample-data/motor.wav

              # A 2-channel accelerometer CSV (rate from its time column), high-passed at 10 Hz,
              # with two band powers, into a file (written atomically)
              sonde process sample-data/pump-vibration.csv --filter highpass:10 \\
                  --bands 0-500,500-2000 -o pump.csv

              # Raw float samples: say the rate, the channels and the type
              sonde process sample-data/bearing.f32le --rate 25600 --channels 2 --sample-type f32le \\
                  --window 4096 --hop 1024 --features rms,kurtosis,dominant_frequency --format ndjson

              # Samples piped in as CSV text
              cat samples.csv | sonde process - --rate 1000
            """
    )

    @Argument(help: ArgumentHelp("Sample files to measure, or - for standard input.", valueName: "FILE"))
    var inputs: [String]

    @OptionGroup(title: "Pipeline")
    var pipeline: PipelineOptions

    @OptionGroup(title: "Input")
    var input: InputOptions

    @OptionGroup(title: "Engine")
    var engine: EngineOptions

    @Option(name: .long, help: "Output format (default: from the -o extension, else csv).")
    var format: OutputFormat?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Output file; '-' or none for standard output.", valueName: "OUT"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No notes on standard error.")
    var quiet = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("expected at least one FILE (or - for standard input)") }
        if let channels = input.channels, channels < 1 {
            throw ValidationError("--channels \(channels): expected at least 1")
        }
        if let rate = input.rate, !(rate > 0 && rate.isFinite) {
            throw ValidationError("--rate \(rate): expected a positive number of Hz")
        }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("standard input (-) can be read only once")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let settings = try pipeline.settings()
            let options = SampleSourceOptions(sampleRate: input.rate, channels: input.channels, sampleType: input.sampleType)
            // Open and check every input and design every filter before writing anything.
            let paths = try InputPaths.expand(inputs)
            let graphInputs = try paths.map { path in
                let source = try SampleSources.open(path: path, options: options)
                do {
                    try settings.validate(sampleRate: source.format.sampleRate)
                } catch var error as SondeError {
                    // Whether a filter or band fits depends on the input's rate: say which input.
                    error.message += " (input '\(path)' is sampled at \(source.format.sampleRate.compactDescription) Hz)"
                    throw error
                }
                return PipelineGraph.Input(name: path, source: source)
            }
            // `-o -` is standard output, as `-` is standard input among the inputs.
            let outputPath = output == "-" ? nil : output
            let outputFormat = format ?? outputPath.flatMap(OutputFormat.init(inferredFrom:)) ?? .csv
            let destination = try outputPath.map { try OutputFile(atomicallyReplacing: $0) }
                ?? OutputFile(standardOutputFlushing: .whenFull)
            let layout = RecordLayout(valueColumns: try settings.valueColumns(sampleRates: graphInputs.map { $0.source.format.sampleRate }), includesFile: paths.count > 1)
            var graphOptions = engine.graphOptions()
            graphOptions.encoder = RecordWriters.encoder(format: outputFormat, layout: layout)
            let graph = PipelineGraph(settings: settings, options: graphOptions)
            let interrupts = Interrupts { _ in graph.stop() }
            let totalSamples = graphInputs.reduce(0 as Int?) { total, input in
                guard let total, let frames = input.source.expectedFrames else { return nil }
                return total + frames * input.source.format.channelCount
            }
            let progress = ProgressBar.start(enabled: !quiet, total: totalSamples) { graph.progress }
            do {
                let writer = UncheckedWriter(try RecordWriters.make(format: outputFormat, layout: layout, output: destination))
                let summary = try await graph.run(inputs: graphInputs) { try writer.writer.write($0) }
                progress?.finish()
                try writer.writer.finish()
                if !quiet {
                    for (index, input) in graphInputs.enumerated() {
                        for note in input.source.notes { Diagnostics.note(note) }
                        if summary.frames[index] == 0 && !summary.stopped {
                            Diagnostics.note(
                                "\(input.name): \(summary.samplesPerChannel[index]) samples per channel, fewer than one window of \(settings.frameLength): no records"
                            )
                        }
                    }
                }
            } catch {
                progress?.finish()
                destination.abandon()
                throw error
            }
            if let status = interrupts.exitStatus { throw ExitCode(status) }
        }
    }
}

/// The record writer, handed to the graph's exporter.
private struct UncheckedWriter: @unchecked Sendable {
    // @unchecked: the graph calls `emit` from its exporter only, one batch at a time, and
    // `finish()` runs after the graph has returned.
    let writer: any RecordWriter
    init(_ writer: any RecordWriter) { self.writer = writer }
}

