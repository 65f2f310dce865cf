public import SondeCore
public import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

/// The one way a command runs the pipeline (`process`, `report`, `spectrum`, `stream`,
/// `bench`): the graph over its inputs into a sink, SIGINT and SIGTERM ending it gracefully
/// (every record already complete is kept), and on a terminal a progress line that is
/// cleared however the run ends. `measure` runs SondeCapture's `LiveCapture` instead (the
/// web app runs it too) and wires the same `Interrupts` to its `requestStop()`.
public final class GraphRun: Sendable {
    public let graph: PipelineGraph
    private let interrupts: Interrupts
    /// `--cpu-report`: after a run, its CPU by kind of thread and serial share on stderr.
    private let cpuReport: Bool

    /// What the progress line counts.
    public enum Progress: Sendable {
        case none
        /// Inputs done of `count`.
        case inputs(count: Int)
        /// Samples (all channels) done, of `total` when known.
        case samples(total: Int?)

        /// Inputs for a run of several, else the samples of the one.
        public static func files(count: Int, samplesOfTheOne: Int?) -> Progress {
            count > 1 ? .inputs(count: count) : .samples(total: samplesOfTheOne)
        }
    }

    public init(settings: PipelineSettings, options: PipelineGraph.Options, cpuReport: Bool = false) {
        let graph = PipelineGraph(settings: settings, options: options)
        self.graph = graph
        self.cpuReport = cpuReport
        interrupts = Interrupts { _ in graph.stop() }
    }

    /// Runs every input into `sink`.
    public func run(
        _ inputs: PipelineGraph.Inputs, into sink: any PipelineSink, progress: Progress = .none, quiet: Bool = false
    ) async throws -> PipelineGraph.Summary {
        let line = start(progress, quiet: quiet)
        let summary: PipelineGraph.Summary
        do {
            defer { line?.finish() }
            summary = try await graph.run(inputs, sink: sink)
        }
        if cpuReport { Diagnostics.say(CPUReport.line(graph)) }
        return summary
    }

    /// Runs inputs opened already (live sources), handing each batch to `emit`.
    public func run(
        _ inputs: [PipelineGraph.Input], emit: @escaping @Sendable (RecordBatch) throws -> Void
    ) async throws -> PipelineGraph.Summary {
        try await graph.run(inputs: inputs, emit: emit)
    }

    /// The signal that ended the run, if one did.
    public var signal: Int32? { interrupts.signal }

    /// 128 + that signal's number: the status a run it ended exits with.
    public var exitStatus: Int32? { interrupts.exitStatus }

    /// "interrupted (SIGINT)" or "(SIGTERM)", for the one line a stopped command says.
    public var interruptedText: String { "interrupted (\(signal == SIGTERM ? "SIGTERM" : "SIGINT"))" }

    private func start(_ progress: Progress, quiet: Bool) -> StatusLine? {
        let graph = graph
        switch progress {
        case .none:
            return nil
        case .inputs(let count):
            return ProgressBar.start(enabled: !quiet, total: count, unit: "inputs") { graph.inputsCompleted }
        case .samples(let total):
            return ProgressBar.start(enabled: !quiet, total: total, unit: "samples") { graph.progress }
        }
    }
}
