#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a login comes from, the second half of a failed-login lock's key: the operating
/// system's user and the host. Five wrong passwords from one source lock the email for that
/// source only, so another user of a shared database cannot lock the owner out.
public enum LoginSource {
    /// `uid 1000@host` for this process.
    public static var current: String {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown-host"
        return "uid \(getuid())@\(host)"
    }
}
