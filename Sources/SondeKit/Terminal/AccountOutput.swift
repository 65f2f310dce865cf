import Foundation
import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// What the account and measurement commands write: whole lines at once, so their order
/// with standard error holds and a killed process has said what it did.
public enum AccountOutput {
    /// One line on standard output, written at once (not left in stdio's buffer, so the
    /// order with stderr holds and a killed process has said what it did).
    public static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Bytes on standard output (a listing's lines).
    /// - Throws: `SondeError(.outputClosed)` when its reader has gone (with SIGPIPE ignored),
    ///   `SondeError(.io)` when it cannot be written.
    public static func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try SystemCall.writeAll(STDOUT_FILENO, bytes)
        } catch  where error.isBrokenPipe {
            throw SondeError(.outputClosed, "output closed by its reader")
        } catch {
            throw SondeError(.io, "standard output: \(error)")
        }
    }

    public static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
