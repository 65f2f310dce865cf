import Foundation
import SondeCore
public import SondeIO
import SondeLive
public import SondePipeline

/// `sonde stream`'s run: a live source through the graph, each record written to standard
/// output as soon as it is computed, optionally a live page and /metrics beside it; what
/// the summary line says comes back as values (the command words it).
public struct StreamRun {
    public var source: StreamSource
    public var settings: PipelineSettings
    public var format: OutputFormat
    public var jobs: Int
    /// When each read returned, for latencies (`--stats`, the live page).
    public var arrivals: ArrivalLog?
    /// `--serve`: where the live page listens.
    public var serve: (host: String, port: Int)?

    /// What a stream did.
    public struct Summary {
        public var records: Int
        public var samplesPerChannel: Int
        /// Frames lost: the instrument's own count, else the clock's drops.
        public var dropped: Int
        public var seconds: Double
        /// Each record's latency, when arrivals were noted.
        public var latencies: LatencyPercentiles
        /// Live-page updates a slow browser missed; nil without a page.
        public var droppedPageUpdates: Int?
        /// The source's notes (a partial trailing sample of raw stdin, a short sound file).
        public var notes: [String]
        /// 128 + the signal that ended it, if one did.
        public var exitStatus: Int32?

        public init(
            records: Int, samplesPerChannel: Int, dropped: Int, seconds: Double, latencies: LatencyPercentiles,
            droppedPageUpdates: Int?, notes: [String], exitStatus: Int32?
        ) {
            (self.records, self.samplesPerChannel, self.dropped, self.seconds) = (
                records, samplesPerChannel, dropped, seconds
            )
            (self.latencies, self.droppedPageUpdates, self.notes, self.exitStatus) = (
                latencies, droppedPageUpdates, notes, exitStatus
            )
        }
    }

    public init(source: StreamSource, settings: PipelineSettings, format: OutputFormat, jobs: Int) {
        self.source = source
        self.settings = settings
        self.format = format
        self.jobs = jobs
    }

    /// Runs until the source ends, its limit, or SIGINT/SIGTERM.
    /// - Parameter serving: told the live page's address once it listens.
    /// - Throws: `SondeError` when the settings do not fit the source's rate (saying the
    ///   rate), the page cannot listen, or a record cannot be written.
    public func run(serving: (String) -> Void) async throws -> Summary {
        let live = source
        let rate = live.chain.source.format.sampleRate
        do {
            try settings.validate(sampleRate: rate)
        } catch var error as SondeError {
            error.message += " (the source is sampled at \(rate.compactDescription) Hz)"
            throw error
        }
        let output = OutputFile(standardOutputFlushing: .everyRecord)
        let layout = RecordLayout(valueColumns: try settings.valueColumns(sampleRate: rate), includesFile: false)
        let writer = try RecordWriters.make(format: format, layout: layout, output: output)
        var options =
            live.paced
            ? PipelineGraph.Options.live(jobs: jobs, sampleRate: rate)
            : PipelineGraph.Options(jobs: jobs, framesPerJob: 8, recordsPerWrite: 1)
        options.encoder = writer.encoder
        var server: LiveServer?
        if let serve {
            let drops = live.chain.clock?.dropCount
            let losses = live.chain.instrumentLosses
            server = try await LiveServer.start(
                host: serve.host, port: serve.port, columns: layout.valueColumns,
                droppedSamples: { losses?() ?? drops?.value ?? 0 }
            )
        }
        options.spectrumTap = server?.spectrumTap
        if let server { serving(server.url) }
        let run = GraphRun(settings: settings, options: options)
        let started = MonotonicClock.seconds()
        let emitter = TimedEmitter(writer: writer, arrivals: arrivals, frameLength: settings.frameLength, live: server)
        let input = PipelineGraph.Input(
            name: live.name, source: live.chain.source,
            clock: .wallClock(sampleRate: rate, epochOfFirstSample: Date().timeIntervalSince1970)
        )
        let summary: PipelineGraph.Summary
        do {
            summary = try await run.run([input]) { try emitter.emit($0) }
        } catch {
            await server?.stop()
            throw error
        }
        await server?.stop()
        try writer.finish()
        return Summary(
            records: summary.records, samplesPerChannel: summary.samplesPerChannel[0], dropped: live.chain.dropped(),
            seconds: MonotonicClock.seconds() - started, latencies: emitter.latencies.withLock { $0 },
            droppedPageUpdates: server?.droppedUpdates, notes: live.chain.source.notes, exitStatus: run.exitStatus)
    }
}
