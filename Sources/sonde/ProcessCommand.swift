import ArgumentParser
import Foundation
import SondeBatch
import SondeCore
import SondeDSP
import SondeIO
import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

struct ProcessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Measure recorded sample files, window by window.",
        discussion: """
            Inputs: CSV (header and a time/t/timestamp column optional), WAV/FLAC/AIFF/OGG/Opus/MP3, raw \
            interleaved f32le/f64le/i16le/i32le (.f32, .f64, .i16, .i32 or --sample-type), \
            - for standard input, a folder (walked recursively, in byte order of the names; \
            files with those extensions, not .txt; names starting with . skipped), or a quoted \
            pattern ('data/*.wav'). Several inputs give one output with a leading `file` column \
            (the path relative to the folder argument), in argument order; up to --jobs of them \
            are worked on at once (with many more jobs than cores, at least two a core and as \
            many as fit 64 MiB), and only those are open. With --jobs 2 or more and no \
            --filter, one long raw, WAV, AIFF or FLAC file is read in segments side by side too; \
            the output is the same bytes.

            Datasets: --output-dir OUT writes one output per input, OUT/<file>.<format>, each \
            complete or not at all, plus OUT/manifest.jsonl (what ran, with which settings and \
            build, and how each input ended, with each output's size and CRC-32C). Rerunning the \
            same command skips inputs whose output is recorded and intact and whose input has not \
            changed, so a killed run resumes where it stopped; one run at a time per OUT and \
            shard (a second is refused, naming the first's pid). --shard K/N runs the inputs \
            of shard K of N (0 <= K < N) of the same dataset, one per machine, into one shared \
            OUT; `sonde merge OUT -o all.csv` joins them into exactly what one run with -o writes.

            Exit status: 0 success, 1 error, 2 some inputs failed (--keep-going), 64 bad usage, \
            130/143 interrupted (SIGINT/SIGTERM; a file output is then left as it was).

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

              # A dataset: every clip under DATA/, one CSV per clip, resumable, bad files skipped
              sonde process DATA --output-dir features --keep-going

              # The same on three machines (Slurm: --array=0-2), then one file
              sonde process DATA --output-dir features --shard $SLURM_ARRAY_TASK_ID/3
              sonde merge features -o all.csv

              # More paths than a command line holds
              find DATA -name '*.flac' -print0 | sonde process --files-from - --null -o all.csv

              # Samples piped in as CSV text
              cat samples.csv | sonde process - --rate 1000
            """
    )

    @OptionGroup(title: "Inputs")
    var inputList: InputListOptions

    @OptionGroup(title: "Pipeline")
    var pipeline: PipelineOptions

    @OptionGroup(title: "Input")
    var input: InputOptions

    @OptionGroup(title: "Engine")
    var engine: EngineOptions

    @Option(name: .long, help: "Output format (default: from the -o extension, else csv).")
    var format: OutputFormat?

    @OptionGroup(title: "Parquet")
    var parquet: ParquetOptions

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Output file; '-' or none for standard output.", valueName: "OUT"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("One output per input in this folder, plus a manifest; resumable.", valueName: "OUT"))
    var outputDir: String?

    @Flag(name: .long, help: "With --output-dir: measure inputs again whose output exists.")
    var overwrite = false

    @Flag(name: .long, help: "With --output-dir: report an input that fails and go on with the others (exit status 2).")
    var keepGoing = false

    @Flag(
        name: .long,
        help:
            "With --output-dir: also compare each input's CRC-32C with the manifest's, for file systems whose times lie."
    )
    var verifyInputs = false

    @Option(
        name: .long, help: ArgumentHelp("With --output-dir: measure only shard K of N (0 <= K < N).", valueName: "K/N"))
    var shard: String?

    @Flag(name: .shortAndLong, help: "No notes or progress on standard error.")
    var quiet = false

    func validate() throws {
        if outputDir == nil {
            for (flag, given) in [
                ("--overwrite", overwrite), ("--keep-going", keepGoing), ("--shard", shard != nil),
                ("--verify-inputs", verifyInputs),
            ] where given {
                throw ValidationError("\(flag) needs --output-dir OUT (one output per input)")
            }
        } else {
            if output != nil {
                throw ValidationError("-o and --output-dir exclude each other: one output, or one per input")
            }
            if inputList.readsStandardInput {
                throw ValidationError("standard input has no name to write an output for in --output-dir; use -o")
            }
        }
        if let shard { _ = try Shard(parsing: shard) }
    }

    func run() async throws {
        try await reportingErrors {
            let settings = try pipeline.settings()
            let list = try inputList.sampleInputs(
                sampleType: input.sampleType, excludingFolders: outputDir.map { [$0] } ?? [])
            let options = input.sampleSourceOptions()
            if let outputDir {
                try await runDataset(list, settings: settings, options: options, outputDir: outputDir)
            } else {
                try await runSingleOutput(list, settings: settings, options: options)
            }
        }
    }

    /// Every input into one output: `-o FILE` or standard output.
    private func runSingleOutput(
        _ list: SampleInputs, settings: PipelineSettings, options: SampleSourceOptions
    ) async throws {
        // `-o -` is standard output, as `-` is standard input among the inputs.
        let outputPath = output == "-" ? nil : output
        if let outputPath, let input = list.input(sameFileAs: outputPath) {
            throw SondeError(
                .invalidArgument, "-o \(outputPath) is the input '\(input.path)': writing it would destroy the input")
        }
        let outputFormat = format ?? outputPath.flatMap(OutputFormat.init(inferredFrom:)) ?? .csv
        let parquetOptions = try parquet.writerOptions(
            format: outputFormat, settings: ParquetOptions.settingsJSON(settings), toStandardOutput: outputPath == nil)
        // The first input is opened and checked before anything is written, and its rate
        // decides the columns (octave bands depend on it); the others are opened as the
        // graph reaches them and must give the same columns.
        let first = try FileInputs.open(list.inputs[0], settings: settings, options: options)
        let columns = try settings.valueColumns(sampleRate: first.source.format.sampleRate)
        let layout = RecordLayout(valueColumns: columns, includesFile: list.namesFiles)
        var graphOptions = engine.graphOptions()
        graphOptions.encoder = RecordWriters.encoder(format: outputFormat, layout: layout)
        let run = GraphRun(settings: settings, options: graphOptions, cpuReport: engine.cpuReport)
        let totalSamples =
            list.inputs.count == 1 ? first.source.expectedFrames.map { $0 * first.source.format.channelCount } : nil
        let inputs = FileInputs.lazyInputs(
            list.inputs, first: first, columns: columns, settings: settings, options: options)
        let destination =
            try outputPath.map { try OutputFile(atomicallyReplacing: $0) }
            ?? OutputFile(standardOutputFlushing: .whenFull)
        let sink: SingleOutputSink
        do {
            sink = SingleOutputSink(
                writer: try RecordWriters.make(
                    format: outputFormat, layout: layout, output: destination, parquet: parquetOptions),
                frameLength: settings.frameLength)
            let summary = try await run.run(
                inputs, into: sink, progress: .files(count: list.inputs.count, samplesOfTheOne: totalSamples),
                quiet: quiet)
            if let status = run.exitStatus, let outputPath {
                // A file output appears complete or not at all: an interrupted run keeps the old one.
                destination.abandon()
                Diagnostics.say("sonde process: \(run.interruptedText); \(outputPath) left as it was")
                throw ExitCode(status)
            }
            try sink.finish()
            if !quiet { for note in sink.notes where !summary.stopped { Diagnostics.note(note) } }
        } catch {
            destination.abandon()
            throw error
        }
        if let status = run.exitStatus { throw ExitCode(status) }
    }

    /// One output per input in `outputDir`, with a manifest; inputs whose output exists are
    /// skipped unless --overwrite.
    private func runDataset(
        _ list: SampleInputs, settings: PipelineSettings, options: SampleSourceOptions, outputDir: String
    ) async throws {
        let outputFormat = format ?? .csv
        let parquetOptions = try parquet.writerOptions(
            format: outputFormat, settings: ParquetOptions.settingsJSON(settings))
        let columns = try FileInputs.probeColumns(
            list.inputs, settings: settings, options: options, keepGoing: keepGoing)
        let layout = RecordLayout(valueColumns: columns, includesFile: list.namesFiles)
        let datasetSettings = DatasetSettings(
            window: settings.frameLength, hop: settings.hop, filters: pipeline.filter, columns: columns,
            rate: input.rate, channels: input.channels, sampleType: input.sampleType?.rawValue,
            format: outputFormat.rawValue, containerOptions: options.container.settingsText)
        let parsedShard = try shard.map { try Shard(parsing: $0) }
        let run = DatasetManifest.Run(
            sonde: SondeVersion.number, build: BuildTarget.name, settings: datasetSettings,
            shard: parsedShard?.description ?? "0/1", inputs: 0, allInputs: 0)
        let outputs = DatasetOutputs(folder: outputDir, format: outputFormat)
        let plan: DatasetPlan
        do {
            plan = try DatasetPlan(
                inputs: list.inputs, outputs: outputs, shard: parsedShard, overwrite: overwrite,
                verifyInputs: verifyInputs, run: run)
        } catch let damaged as DatasetManifest.Damaged {
            Diagnostics.error(damaged.description)
            throw ExitCode(2)
        }
        // Released when the run ends, whatever way: held until then, so no other run starts.
        defer { plan.lock.release() }
        for warning in plan.warnings { Diagnostics.note(warning) }
        if !quiet, let summary = Self.planSummary(plan.counts, of: plan.shardInputs, in: outputDir) {
            Diagnostics.note(summary)
        }
        var graphOptions = engine.graphOptions()
        graphOptions.keepGoing = keepGoing
        graphOptions.encoder = RecordWriters.encoder(format: outputFormat, layout: layout)
        let graphRun = GraphRun(settings: settings, options: graphOptions, cpuReport: engine.cpuReport)
        let todo = plan.todo
        let sink = DatasetSink(
            outputs: outputs, layout: layout, parquet: parquetOptions, manifest: plan.manifest,
            datasetIndices: todo.map(\.index),
            frameLength: settings.frameLength, report: { Diagnostics.error($0) })
        let summary: PipelineGraph.Summary
        do {
            summary = try await graphRun.run(
                FileInputs.lazyInputs(
                    todo.map(\.input), first: nil, columns: columns, settings: settings, options: options),
                into: sink, progress: .inputs(count: todo.count), quiet: quiet)
        } catch {
            sink.abandonCurrent()
            // The outputs written before the error are complete: keep them for the rerun.
            try? sink.recordResults()
            throw error
        }
        try sink.recordResults()
        if let status = graphRun.exitStatus {
            sink.abandonCurrent()
            Diagnostics.say(
                "sonde process: \(graphRun.interruptedText); \(graphRun.graph.inputsCompleted) of \(todo.count) inputs written to \(outputDir); run the same command again to go on"
            )
            throw ExitCode(status)
        }
        if !quiet { for note in sink.notes { Diagnostics.note(note) } }
        if summary.failedInputs > 0 {
            Diagnostics.say(
                "sonde process: \(summary.failedInputs) of \(todo.count) inputs failed (listed above and in \(outputDir)/\(DatasetManifest.fileName(shard: parsedShard)))"
            )
            throw ExitCode(2)
        }
    }

    /// What a rerun found: how many inputs it skips, and why it redoes the others.
    static func planSummary(_ counts: DatasetPlan.Counts, of total: Int, in folder: String) -> String? {
        var redone = [
            (counts.missingOutputs, "missing output"), (counts.damagedOutputs, "damaged output"),
            (counts.changedInputs, "changed input"), (counts.unverified, "unverified (no checksum recorded)"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 || $0.1.hasPrefix("unverified") ? "" : "s")" }
        guard counts.skipped > 0 || !redone.isEmpty else { return nil }
        if counts.new > 0 { redone.append("\(counts.new) not measured before") }
        var text =
            "\(counts.skipped) of \(total) inputs already have an output in \(folder): skipped (--overwrite redoes them)"
        if !redone.isEmpty { text += "; redone: " + redone.joined(separator: ", ") }
        return text
    }
}
