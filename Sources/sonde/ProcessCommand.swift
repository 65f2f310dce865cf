import ArgumentParser
import Foundation
import SondeBatch
import SondeCore
import SondeIO
import SondeKit
import SondePipeline

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
            guard let outputDir else {
                // `-o -` is standard output, as `-` is standard input among the inputs.
                let outputPath = output == "-" ? nil : output
                var run = SingleRun(
                    inputs: list, settings: settings, sourceOptions: options, outputPath: outputPath, format: format,
                    graph: engine.graphOptions())
                (run.cpuReport, run.quiet) = (engine.cpuReport, quiet)
                let outcome = try await run.run { format in
                    try parquet.writerOptions(
                        format: format, settings: ExportDefaults.settingsJSON(settings),
                        toStandardOutput: outputPath == nil)
                }
                guard case .interrupted(let status, let text) = outcome else { return }
                if let outputPath { Diagnostics.say("sonde process: \(text); \(outputPath) left as it was") }
                throw ExitCode(status)
            }
            let format = format ?? .csv
            var run = DatasetRun(
                inputs: list, settings: settings, sourceOptions: options, filters: pipeline.filter,
                outputDir: outputDir, format: format,
                parquet: try parquet.writerOptions(format: format, settings: ExportDefaults.settingsJSON(settings)),
                graph: engine.graphOptions())
            (run.shard, run.overwrite, run.keepGoing) = (try shard.map { try Shard(parsing: $0) }, overwrite, keepGoing)
            (run.verifyInputs, run.cpuReport, run.quiet) = (verifyInputs, engine.cpuReport, quiet)
            let outcome = try await run.run()
            switch outcome {
            case .completed: return
            case .damagedManifest(let text): Diagnostics.error(text)
            case .interrupted(_, let text, let written, let todo):
                Diagnostics.say(
                    "sonde process: \(text); \(written) of \(todo) inputs written to \(outputDir); run the same command again to go on"
                )
            case .inputsFailed(let failed, let todo, let manifest):
                Diagnostics.say(
                    "sonde process: \(failed) of \(todo) inputs failed (listed above and in \(outputDir)/\(manifest))")
            }
            throw ExitCode(outcome.exitStatus)
        }
    }
}
