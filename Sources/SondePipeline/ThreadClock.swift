#if canImport(Glibc)
    import Glibc
#endif

/// One thread's CPU-time clock (`pthread_getcpuclockid`), readable from any thread while
/// that thread lives: the run reads its threads' CPU at its end, without a clock read per
/// job or per block on the threads themselves.
struct ThreadClock: Sendable {
    private let clock: clockid_t

    /// The calling thread's clock, or nil where the system has none.
    static func current() -> ThreadClock? {
        var clock = clockid_t()
        guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return nil }
        return ThreadClock(clock: clock)
    }

    /// CPU time the thread has used so far; 0 once it has ended.
    var nanoseconds: UInt64 {
        var spec = timespec()
        guard clock_gettime(clock, &spec) == 0 else { return 0 }
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// CPU time the whole process has used so far (every thread, ended ones included).
    static func processNanoseconds() -> UInt64 {
        ThreadClock(clock: CLOCK_PROCESS_CPUTIME_ID).nanoseconds
    }
}
