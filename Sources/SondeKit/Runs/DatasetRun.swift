public import SondeBatch
import SondeCore
public import SondeIO
public import SondePipeline

/// One output per input in a folder, with a manifest and the folder's lock: the dataset
/// use-case of `sonde process --output-dir`. Inputs whose output is recorded and intact
/// are skipped unless `overwrite`, so a killed run resumes; how the run ended is a typed
/// outcome, which the command words and turns into its exit status.
public struct DatasetRun {
    public var inputs: SampleInputs
    public var settings: PipelineSettings
    public var sourceOptions: SampleSourceOptions
    /// `--filter` as given, for the manifest (a rerun with other filters redoes everything).
    public var filters: [String]
    public var outputDir: String
    public var format: OutputFormat
    public var parquet: ParquetWriterOptions
    public var shard: Shard?
    public var overwrite = false
    public var keepGoing = false
    public var verifyInputs = false
    public var graph: PipelineGraph.Options
    public var cpuReport = false
    /// No plan summary, notes or progress on standard error.
    public var quiet = false

    /// How a dataset run ended, when it did not throw.
    public enum Outcome: Sendable, Equatable {
        case completed
        /// The manifest cannot be read; nothing ran (its text says what is wrong).
        case damagedManifest(String)
        /// A signal stopped it: `written` of `todo` inputs have their output.
        case interrupted(exitStatus: Int32, text: String, written: Int, todo: Int)
        /// With `keepGoing`, `failed` of `todo` inputs failed; each is in `manifest`.
        case inputsFailed(failed: Int, todo: Int, manifest: String)

        /// 0, 2 for a damaged manifest or failed inputs, 128 + the signal's number.
        public var exitStatus: Int32 {
            switch self {
            case .completed: 0
            case .damagedManifest, .inputsFailed: 2
            case .interrupted(let status, _, _, _): status
            }
        }
    }

    public init(
        inputs: SampleInputs, settings: PipelineSettings, sourceOptions: SampleSourceOptions, filters: [String],
        outputDir: String, format: OutputFormat, parquet: ParquetWriterOptions, graph: PipelineGraph.Options
    ) {
        self.inputs = inputs
        self.settings = settings
        self.sourceOptions = sourceOptions
        self.filters = filters
        self.outputDir = outputDir
        self.format = format
        self.parquet = parquet
        self.graph = graph
    }

    /// Plans (under the folder's lock, held until it returns), measures what is to do, and
    /// records every result in the manifest.
    /// - Throws: `SondeError` for an input that fails without `keepGoing`, a folder locked
    ///   by another run, an output that cannot be written.
    public func run() async throws -> Outcome {
        let columns = try FileInputs.probeColumns(
            inputs.inputs, settings: settings, options: sourceOptions, keepGoing: keepGoing)
        let layout = RecordLayout(valueColumns: columns, includesFile: inputs.namesFiles)
        let datasetSettings = DatasetSettings(
            window: settings.frameLength, hop: settings.hop, filters: filters, columns: columns,
            rate: sourceOptions.sampleRate, channels: sourceOptions.channels,
            sampleType: sourceOptions.sampleType?.rawValue, format: format.rawValue,
            containerOptions: sourceOptions.container.settingsText)
        let manifestRun = DatasetManifest.Run(
            sonde: SondeVersion.number, build: BuildTarget.name, settings: datasetSettings,
            shard: shard?.description ?? "0/1", inputs: 0, allInputs: 0)
        let outputs = DatasetOutputs(folder: outputDir, format: format)
        let plan: DatasetPlan
        do {
            plan = try DatasetPlan(
                inputs: inputs.inputs, outputs: outputs, shard: shard, overwrite: overwrite,
                verifyInputs: verifyInputs, run: manifestRun)
        } catch let damaged as DatasetManifest.Damaged {
            return .damagedManifest(damaged.description)
        }
        // Released when the run ends, whatever way: held until then, so no other run starts.
        defer { plan.lock.release() }
        for warning in plan.warnings { Diagnostics.note(warning) }
        if !quiet, let summary = Self.planSummary(plan.counts, of: plan.shardInputs, in: outputDir) {
            Diagnostics.note(summary)
        }
        var graphOptions = graph
        graphOptions.keepGoing = keepGoing
        graphOptions.encoder = RecordWriters.encoder(format: format, layout: layout)
        let graphRun = GraphRun(settings: settings, options: graphOptions, cpuReport: cpuReport)
        let todo = plan.todo
        let sink = DatasetSink(
            outputs: outputs, layout: layout, parquet: parquet, manifest: plan.manifest,
            datasetIndices: todo.map(\.index),
            frameLength: settings.frameLength, report: { Diagnostics.error($0) })
        let summary: PipelineGraph.Summary
        do {
            summary = try await graphRun.run(
                FileInputs.lazyInputs(
                    todo.map(\.input), first: nil, columns: columns, settings: settings, options: sourceOptions),
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
            return .interrupted(
                exitStatus: status, text: graphRun.interruptedText, written: graphRun.graph.inputsCompleted,
                todo: todo.count)
        }
        if !quiet { for note in sink.notes { Diagnostics.note(note) } }
        if summary.failedInputs > 0 {
            return .inputsFailed(
                failed: summary.failedInputs, todo: todo.count, manifest: DatasetManifest.fileName(shard: shard))
        }
        return .completed
    }

    /// What a rerun found: how many inputs it skips, and why it redoes the others.
    public static func planSummary(_ counts: DatasetPlan.Counts, of total: Int, in folder: String) -> String? {
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
