import Synchronization

/// When each run of samples arrived, so a record's latency can be measured from the
/// arrival of its window's last sample to the moment it is written.
public final class ArrivalLog: Sendable {
    private struct Entry {
        /// Frames received up to and including this arrival.
        var endFrame: Int
        var nanoseconds: UInt64
    }

    private let entries = Mutex<[Entry]>([])

    public init() {}

    func record(endFrame: Int, at nanoseconds: UInt64) {
        entries.withLock { $0.append(Entry(endFrame: endFrame, nanoseconds: nanoseconds)) }
    }

    /// `MonotonicClock` time at which `frame` (a per-channel sample index) arrived, and forgets
    /// older arrivals: records are looked up in order.
    public func arrival(ofFrame frame: Int) -> UInt64? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.endFrame > frame }) else { return nil }
            let time = entries[index].nanoseconds
            if index > 0 { entries.removeFirst(index) }
            return time
        }
    }
}
