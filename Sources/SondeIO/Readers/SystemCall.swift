import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place where POSIX calls that can fail become `SondeError`s with context
/// (as swift-nio's `NIOPosix/System.swift` does).
enum SystemCall {
    /// Runs `body`, retrying while it fails with `EINTR`; any other failure (a negative
    /// result) becomes an `.io` error whose message is `context` plus the system's words.
    static func retryingInterrupts<Result: BinaryInteger>(
        _ context: @autoclosure () -> String,
        _ body: () -> Result
    ) throws -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SondeError(.io, "\(context()): \(describe(code))")
        }
    }

    /// The system's description of an `errno` value, in lower case as sonde's messages are.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let message = String(cString: text)
        guard let first = message.first else { return "error \(code)" }
        return first.lowercased() + message.dropFirst()
    }
}
