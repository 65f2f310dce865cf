import SondeBatch
import SondeCore
public import SondeIO
public import SondePipeline

/// Every input into one output, a file (`-o FILE`, written atomically: complete or not at
/// all) or standard output: the single-output use-case of `sonde process`. The first input
/// is opened and checked before anything is written, and its rate decides the columns
/// (octave bands depend on it); the others are opened as the graph reaches them and must
/// give the same columns.
public struct SingleRun {
    public var inputs: SampleInputs
    public var settings: PipelineSettings
    public var sourceOptions: SampleSourceOptions
    /// The output file; nil for standard output.
    public var outputPath: String?
    /// `--format`; nil: from the output's extension, else CSV.
    public var format: OutputFormat?
    public var graph: PipelineGraph.Options
    public var cpuReport = false
    /// No notes or progress on standard error.
    public var quiet = false

    /// How a single run ended, when it did not throw.
    public enum Outcome: Sendable, Equatable {
        case completed
        /// A signal stopped it; a file output was left as it was (standard output keeps the
        /// records written).
        case interrupted(exitStatus: Int32, text: String)
    }

    public init(
        inputs: SampleInputs, settings: PipelineSettings, sourceOptions: SampleSourceOptions, outputPath: String?,
        format: OutputFormat?, graph: PipelineGraph.Options
    ) {
        self.inputs = inputs
        self.settings = settings
        self.sourceOptions = sourceOptions
        self.outputPath = outputPath
        self.format = format
        self.graph = graph
    }

    /// The format written: `format`, else the output's extension's, else CSV.
    public var outputFormat: OutputFormat {
        format ?? outputPath.flatMap(OutputFormat.init(inferredFrom:)) ?? .csv
    }

    /// Runs the graph into the output.
    /// - Parameter parquet: the writer options for the format written (the command's
    ///   Parquet options refuse what does not apply to it).
    /// - Throws: `SondeError(.invalidArgument)` when the output is one of the inputs (writing
    ///   it would destroy it); the first input's or the pipeline's error.
    public func run(parquet: (OutputFormat) throws -> ParquetWriterOptions) async throws -> Outcome {
        try inputs.refuseOverwriting(outputPath)
        let outputFormat = outputFormat
        let parquetOptions = try parquet(outputFormat)
        let first = try FileInputs.open(inputs.inputs[0], settings: settings, options: sourceOptions)
        let columns = try settings.valueColumns(sampleRate: first.source.format.sampleRate)
        let layout = RecordLayout(valueColumns: columns, includesFile: inputs.namesFiles)
        var graphOptions = graph
        graphOptions.encoder = RecordWriters.encoder(format: outputFormat, layout: layout)
        let run = GraphRun(settings: settings, options: graphOptions, cpuReport: cpuReport)
        let totalSamples =
            inputs.inputs.count == 1 ? first.source.expectedFrames.map { $0 * first.source.format.channelCount } : nil
        let lazy = FileInputs.lazyInputs(
            inputs.inputs, first: first, columns: columns, settings: settings, options: sourceOptions)
        let destination =
            try outputPath.map { try OutputFile(atomicallyReplacing: $0) }
            ?? OutputFile(standardOutputFlushing: .whenFull)
        do {
            let sink = SingleOutputSink(
                writer: try RecordWriters.make(
                    format: outputFormat, layout: layout, output: destination, parquet: parquetOptions),
                frameLength: settings.frameLength)
            let summary = try await run.run(
                lazy, into: sink, progress: .files(count: inputs.inputs.count, samplesOfTheOne: totalSamples),
                quiet: quiet)
            if let status = run.exitStatus, outputPath != nil {
                // A file output appears complete or not at all: an interrupted run keeps the old one.
                destination.abandon()
                return .interrupted(exitStatus: status, text: run.interruptedText)
            }
            try sink.finish()
            if !quiet { for note in sink.notes where !summary.stopped { Diagnostics.note(note) } }
        } catch {
            destination.abandon()
            throw error
        }
        if let status = run.exitStatus { return .interrupted(exitStatus: status, text: run.interruptedText) }
        return .completed
    }
}
