#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place where POSIX calls are retried on `EINTR` and their failures become typed
/// errors (as swift-nio's `NIOPosix/System.swift` does). Every read, write and open of the
/// package goes through here or through `AtomicFile`, `SmallFile` and `OutputFile`, which do.
package enum SystemCall {
    /// A failed call: the `errno` it left, for callers that branch on it (a closed pipe is
    /// not an error for `sonde ... | head`), and the system's words for messages.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var code: Int32

        package var isBrokenPipe: Bool { code == EPIPE }
        package var description: String { SystemCall.describe(code) }
    }

    /// Runs `body`, retrying while it fails with `EINTR`; any other failure (a negative
    /// result) becomes an `.io` error whose message is `context` plus the system's words.
    package static func retryingInterrupts<Result: BinaryInteger>(
        _ context: @autoclosure () -> String,
        _ body: () -> Result
    ) throws -> Result {
        do {
            return try retrying(body)
        } catch {
            throw SondeError(.io, "\(context()): \(error)")
        }
    }

    /// Runs `body`, retrying while it fails with `EINTR`.
    /// - Throws: the `Failure` of any other negative result.
    package static func retrying<Result: BinaryInteger>(_ body: () -> Result) throws(Failure) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw Failure(code: code) }
        }
    }

    /// Writes all of `bytes` to `descriptor`, however many calls that takes.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            offset += try retrying { write(descriptor, base + offset, bytes.count - offset) }
        }
    }

    /// Reads into `buffer` until it is full or the input ends; returns the bytes read.
    package static func readFully(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(Failure) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        while count < buffer.count {
            let got = try retrying { read(descriptor, base + count, buffer.count - count) }
            if got == 0 { break }
            count += got
        }
        return count
    }

    /// Reads from `offset` into `buffer` until it is full or the file ends; returns the bytes read.
    package static func readFully(
        _ descriptor: Int32, at offset: Int, into buffer: UnsafeMutableRawBufferPointer
    ) throws(Failure) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        while count < buffer.count {
            let got = try retrying { pread(descriptor, base + count, buffer.count - count, off_t(offset + count)) }
            if got == 0 { break }
            count += got
        }
        return count
    }

    /// `open(2)`, retried on `EINTR`.
    package static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0) throws(Failure) -> Int32 {
        try retrying { Glibc.open(path, flags, mode_t(mode)) }
    }

    /// The system's description of an `errno` value, in lower case as sonde's messages are.
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let message = String(cString: text)
        guard let first = message.first else { return "error \(code)" }
        return first.lowercased() + message.dropFirst()
    }
}
