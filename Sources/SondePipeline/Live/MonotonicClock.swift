#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds from a monotonic clock, for pacing, latency and durations.
public enum MonotonicClock {
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds on the same clock, for measuring durations.
    public static func seconds() -> Double {
        Double(now()) / 1e9
    }

    /// Sleeps the calling (blocking I/O) thread.
    static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR { request = remaining }
    }
}
