import Synchronization

/// Busy time per stage, summed over threads, for `sonde bench`'s breakdown. One clock
/// read per block or job, never per sample.
public final class StageTimes: Sendable {
    /// The graph's stages, in the order samples pass through them.
    public enum Stage: Int, CaseIterable, Sendable {
        case read, filter, measure, export

        public var name: String {
            switch self {
            case .read: "read"
            case .filter: "de-interleave + filter"
            case .measure: "features"
            case .export: "format + write"
            }
        }
    }

    private let read = Atomic<UInt64>(0)
    private let filter = Atomic<UInt64>(0)
    private let measure = Atomic<UInt64>(0)
    private let export = Atomic<UInt64>(0)

    public init() {}

    /// Runs `body` and adds its duration to `stage`.
    @inline(__always)
    func time<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        defer { add(stage, MonotonicClock.now() &- start) }
        return try body()
    }

    func add(_ stage: Stage, _ nanoseconds: UInt64) {
        switch stage {
        case .read: read.add(nanoseconds, ordering: .relaxed)
        case .filter: filter.add(nanoseconds, ordering: .relaxed)
        case .measure: measure.add(nanoseconds, ordering: .relaxed)
        case .export: export.add(nanoseconds, ordering: .relaxed)
        }
    }

    /// Seconds of busy time of `stage` so far.
    public func seconds(_ stage: Stage) -> Double {
        let nanos: UInt64 =
            switch stage {
            case .read: read.load(ordering: .relaxed)
            case .filter: filter.load(ordering: .relaxed)
            case .measure: measure.load(ordering: .relaxed)
            case .export: export.load(ordering: .relaxed)
            }
        return Double(nanos) / 1e9
    }
}
