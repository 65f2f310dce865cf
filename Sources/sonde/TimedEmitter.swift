import SondeCore
import SondeIO
import SondePipeline
import Synchronization

/// Writes batches for `stream` and `bench` and, given arrival times, measures each
/// record's latency: from its window's last sample in to the record written.
final class TimedEmitter: @unchecked Sendable {
    // @unchecked: the graph calls `emit` from its exporter only, one batch at a time; the
    // histogram is behind its own lock for the summary.
    let writer: any RecordWriter
    let arrivals: ArrivalLog?
    let latencies = Mutex(LatencyHistogram())
    let frameLength: Int

    init(writer: any RecordWriter, arrivals: ArrivalLog?, frameLength: Int) {
        self.writer = writer
        self.arrivals = arrivals
        self.frameLength = frameLength
    }

    func emit(_ batch: RecordBatch) throws {
        try writer.write(batch)
        guard let arrivals else { return }
        let now = MonotonicClock.now()
        for frame in 0..<batch.frameCount {
            let lastSample = (batch.firstFrame + frame) * batch.hop + frameLength - 1
            guard let arrived = arrivals.arrival(ofFrame: lastSample) else { continue }
            latencies.withLock { histogram in
                for _ in batch.channelNames { histogram.record(nanoseconds: now &- arrived) }
            }
        }
    }
}
