public import SondeCore
import Synchronization

/// Delivers another source's samples no faster than its sample clock, as a live device or
/// a real-time replay would, and decides what happens when the consumer falls behind.
public final class LiveClockSource: SampleSource {
    /// What to do when samples are due faster than they are taken.
    public enum OverrunPolicy: String, Sendable, CaseIterable {
        /// Keep the device's buffer bounded: drop the oldest whole blocks and count them.
        case dropOldest = "drop-oldest"
        /// Wait: the stream falls behind real time, nothing is lost.
        case block
    }

    public var format: StreamFormat { base.format }
    public var notes: [String] { base.notes }
    public var expectedFrames: Int? { base.expectedFrames }

    private let base: any SampleSource
    private let policy: OverrunPolicy
    private let paced: Bool
    /// Frames the simulated device can hold before it must drop.
    private let deviceBufferFrames: Int
    /// Frames gathered before a read returns (about 1 ms), so each read is worth a wake-up.
    private let minimumReadFrames: Int
    private let arrivals: ArrivalLog?
    private var start: UInt64 = 0
    private var delivered = 0
    private var scratch: [Double] = []
    /// Frames dropped so far.
    public var droppedFrames: Int { dropCount.value }
    /// The same count, readable from any thread while the run goes on (for `/metrics`).
    public let dropCount = DroppedFrameCount()

    /// - Parameters:
    ///   - paced: false to deliver as fast as asked (`--as-fast-as-possible`).
    ///   - deviceBufferSeconds: how much a live device buffers before it drops.
    ///   - arrivals: where to note when samples arrive, for latency statistics.
    public init(
        base: any SampleSource, policy: OverrunPolicy, paced: Bool = true, deviceBufferSeconds: Double = 0.5,
        arrivals: ArrivalLog? = nil
    ) {
        self.base = base
        self.policy = policy
        self.paced = paced
        let rate = base.format.sampleRate
        deviceBufferFrames = Swift.max(1, Int(rate * deviceBufferSeconds))
        minimumReadFrames = Swift.max(1, Int(rate / 1000))
        self.arrivals = arrivals
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        let capacity = buffer.count / channels
        if start == 0 { start = MonotonicClock.now() }
        var wanted = capacity
        if paced {
            var due = framesDue()
            if due < minimumReadFrames {
                let nanos = UInt64(Double(minimumReadFrames - due) / format.sampleRate * 1e9)
                MonotonicClock.sleep(nanoseconds: nanos)
                due = framesDue()
            }
            if policy == .dropOldest, due > deviceBufferFrames {
                dropFrames(due - deviceBufferFrames, blockFrames: minimumReadFrames)
                due = framesDue()
            }
            wanted = Swift.min(capacity, Swift.max(due, 0))
        }
        guard wanted > 0 else { return 0 }
        let frames = try base.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(wanted * channels)]))
        delivered += frames
        arrivals?.record(endFrame: delivered, at: MonotonicClock.now())
        return frames
    }

    /// Frames due by now and not yet delivered or dropped.
    private func framesDue() -> Int {
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        return Int(elapsed * format.sampleRate) - delivered - droppedFrames
    }

    /// Reads and discards the oldest due frames, in whole blocks, so the device's sample
    /// sequence stays the same whether or not it overruns.
    private func dropFrames(_ count: Int, blockFrames: Int) {
        let blocks = (count + blockFrames - 1) / blockFrames
        let frames = blocks * blockFrames
        let channels = format.channelCount
        if scratch.count < blockFrames * channels { scratch = [Double](repeating: 0, count: blockFrames * channels) }
        var remaining = frames
        scratch.withUnsafeMutableBufferPointer { scratch in
            while remaining > 0 {
                let take = Swift.min(remaining, blockFrames)
                let got =
                    (try? base.read(into: UnsafeMutableBufferPointer(rebasing: scratch[0..<(take * channels)]))) ?? 0
                if got == 0 { break }
                remaining -= got
            }
        }
        dropCount.add(frames - remaining)
    }
}
