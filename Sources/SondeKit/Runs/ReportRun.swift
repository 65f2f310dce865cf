import SondeCore
public import SondeIO
public import SondePipeline
import SondeReport

/// `sonde report`'s page: one pass of the graph over every input, with a spectrum tap for
/// the spectrogram and the averaged spectrum, into a sink that writes each input's section
/// when the input ends (bounded memory), then the settings. The page is written atomically:
/// an interrupted run leaves the old file as it was.
public struct ReportRun {
    public var inputs: SampleInputs
    public var settings: PipelineSettings
    public var sourceOptions: SampleSourceOptions
    public var outputPath: String
    /// `--figures`: a folder for every figure as its own file.
    public var figures: String?
    /// The features drawn over time; nil for `ExportDefaults.reportTrends`.
    public var trends: [String]?
    /// The page's table of what made it (the command words it: it knows its options).
    public var settingsRows: [(label: String, value: String)] = []
    /// The envelope figures with defect lines, with `--bearing`.
    public var defectLines: ReportDefectLines?
    public var graph: PipelineGraph.Options
    public var cpuReport = false
    /// No notes or progress on standard error.
    public var quiet = false

    public init(
        inputs: SampleInputs, settings: PipelineSettings, sourceOptions: SampleSourceOptions, outputPath: String,
        graph: PipelineGraph.Options
    ) {
        self.inputs = inputs
        self.settings = settings
        self.sourceOptions = sourceOptions
        self.outputPath = outputPath
        self.graph = graph
    }

    /// The trends among `columns`: the chosen features (or the default set), then every band power.
    public func trendedColumns(_ columns: [String]) -> [String] {
        let chosen = trends ?? ExportDefaults.reportTrends
        return columns.filter { chosen.contains($0) } + columns.filter { $0.hasPrefix("band_power:") }
    }

    /// Writes the page.
    /// - Throws: `SondeError(.invalidArgument)` when the output is one of the inputs; the
    ///   first input's or the pipeline's error, or an envelope figure's.
    public func run() async throws -> SingleRun.Outcome {
        try inputs.refuseOverwriting(outputPath)
        let first = try FileInputs.open(inputs.inputs[0], settings: settings, options: sourceOptions)
        let columns = try settings.valueColumns(sampleRate: first.source.format.sampleRate)
        let spectra = ReportSpectra()
        var graphOptions = graph
        graphOptions.spectrumTap = spectra
        let run = GraphRun(settings: settings, options: graphOptions, cpuReport: cpuReport)
        let destination = try OutputFile(atomicallyReplacing: outputPath)
        let list = inputs.inputs
        let totalSamples =
            list.count == 1 ? first.source.expectedFrames.map { $0 * first.source.format.channelCount } : nil
        do {
            let sink = try ReportSink(
                output: destination,
                head: ReportHTML.head(
                    title: list.count == 1 ? "sonde report: \(list[0].name)" : "sonde report: \(list.count) inputs",
                    madeBy: SondeVersion.named, settings: settingsRows),
                spectra: spectra, columns: columns, trended: trendedColumns(columns),
                bands: settings.bands.map { $0.low...$0.high },
                figures: figures.map { ReportFigures(directory: $0) },
                frameLength: settings.frameLength,
                envelopes: defectLines.map { $0.figures(list, options: sourceOptions) })
            _ = try await run.run(
                FileInputs.lazyInputs(list, first: first, columns: columns, settings: settings, options: sourceOptions),
                into: sink, progress: .files(count: list.count, samplesOfTheOne: totalSamples), quiet: quiet)
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
