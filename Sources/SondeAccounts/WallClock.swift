#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock time as seconds since 1970: what sessions, tokens and locks are dated by.
/// Services take a `now` closure so that tests can move time (expiry, lock durations).
public enum WallClock {
    @Sendable public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
