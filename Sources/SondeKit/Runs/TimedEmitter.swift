public import SondeCore
public import SondeIO
public import SondeLive
public import SondePipeline
public import Synchronization

/// Writes batches for `stream` and `bench` and, given arrival times, measures each
/// record's latency: from its window's last sample in to the record written.
public final class TimedEmitter: @unchecked Sendable {
    // @unchecked: the graph calls `emit` from its exporter only, one batch at a time; the
    // histogram is behind its own lock for the summary.
    let writer: any RecordWriter
    let arrivals: ArrivalLog?
    public let latencies = Mutex(LatencyPercentiles())
    let frameLength: Int
    /// The live page and /metrics of `stream --serve`, given each batch once it is written.
    let live: LiveServer?

    public init(writer: any RecordWriter, arrivals: ArrivalLog?, frameLength: Int, live: LiveServer? = nil) {
        self.writer = writer
        self.arrivals = arrivals
        self.frameLength = frameLength
        self.live = live
    }

    public func emit(_ batch: RecordBatch) throws {
        try writer.write(batch)
        live?.publish(batch)
        guard let arrivals else { return }
        let now = MonotonicClock.now()
        for frame in 0..<batch.frameCount {
            let lastSample = (batch.firstFrame + frame) * batch.hop + frameLength - 1
            guard let arrived = arrivals.arrival(ofFrame: lastSample) else { continue }
            latencies.withLock { $0.record(nanoseconds: now &- arrived, count: batch.channelNames.count) }
            live?.recordLatency(nanoseconds: now &- arrived, count: batch.channelNames.count)
        }
    }
}
