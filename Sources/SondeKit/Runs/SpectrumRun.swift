import SondeBatch
import SondeCore
public import SondeIO
public import SondePipeline

/// `sonde spectrum`'s averaged power spectrum (Welch, docs/features.md section 8) of every
/// input, one table: the graph runs with a spectrum tap and no records. The first input is
/// opened and checked before anything is written; an interrupted run writes nothing, since
/// a spectrum of part of an input would pass for the whole one.
public struct SpectrumRun {
    public var inputs: SampleInputs
    public var settings: PipelineSettings
    public var sourceOptions: SampleSourceOptions
    /// The output file; nil for standard output.
    public var outputPath: String?
    /// `--format`; nil: from the output's extension, else CSV.
    public var format: SpectrumWriter.Format?
    public var graph: PipelineGraph.Options
    public var cpuReport = false
    /// No notes on standard error.
    public var quiet = false

    public init(
        inputs: SampleInputs, settings: PipelineSettings, sourceOptions: SampleSourceOptions, outputPath: String?,
        format: SpectrumWriter.Format?, graph: PipelineGraph.Options
    ) {
        self.inputs = inputs
        self.settings = settings
        self.sourceOptions = sourceOptions
        self.outputPath = outputPath
        self.format = format
        self.graph = graph
    }

    /// The format written: `format`, else the output's extension's, else CSV.
    public var outputFormat: SpectrumWriter.Format {
        format ?? outputPath.flatMap(SpectrumWriter.Format.init(inferredFrom:)) ?? .csv
    }

    /// Runs the graph and writes the table.
    /// - Throws: `SondeError(.invalidArgument)` when the output is one of the inputs; the
    ///   first input's, the pipeline's, or `.invalidInput` for an input shorter than a window.
    public func run() async throws -> SingleRun.Outcome {
        try inputs.refuseOverwriting(outputPath)
        let first = try FileInputs.open(inputs.inputs[0], settings: settings, options: sourceOptions)
        let lazy = FileInputs.lazyInputs(
            inputs.inputs, first: first, columns: [], settings: settings, options: sourceOptions)
        let averager = SpectrumAverager()
        var graphOptions = graph
        graphOptions.spectrumTap = averager
        let run = GraphRun(settings: settings, options: graphOptions, cpuReport: cpuReport)
        let destination = try OutputFile.fileOrStandardOutput(outputPath)
        do {
            let sink = SpectrumSink(
                averager: averager,
                writer: SpectrumWriter(format: outputFormat, output: destination, includesFile: inputs.namesFiles),
                frameLength: settings.frameLength)
            _ = try await run.run(lazy, into: sink)
            if let status = run.exitStatus {
                destination.abandon()
                return .interrupted(exitStatus: status, text: run.interruptedText)
            }
            try sink.finish()
            try destination.commit()
            if !quiet { for note in sink.notes { Diagnostics.note(note) } }
        } catch {
            destination.abandon()
            throw error
        }
        return .completed
    }
}
