import ArgumentParser
import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Everything sonde says on standard error goes through here, one line at a time.
enum Diagnostics {
    static func note(_ message: String) {
        writeLine("note: \(message)")
    }

    /// A transient status line, only on a terminal.
    static func progress(_ message: String) {
        if isatty(2) == 1 { writeLine(message) }
    }

    /// A line of its own (a summary), always.
    static func say(_ message: String) {
        writeLine(message)
    }

    static func error(_ message: String) {
        writeLine("error: \(message)")
    }

    private static func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        // A failed write to stderr has nowhere to be reported.
        bytes.withUnsafeBytes { try? SystemCall.writeAll(2, $0) }
    }
}

/// Runs a command body, turning a `SondeError` into one line on stderr and an exit status:
/// 130 for an interrupted run, 0 for a reader that closed our output, 1 otherwise.
func reportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as SondeError {
        switch error.code {
        case .outputClosed:
            throw ExitCode.success
        case .cancelled:
            throw ExitCode(130)
        default:
            Diagnostics.error(error.description)
            throw ExitCode.failure
        }
    }
}
