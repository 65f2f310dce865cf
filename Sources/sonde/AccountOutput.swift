import ArgumentParser
import Foundation
import SondeAccounts
import SondeCore

/// Runs an account or measurement command body: an `AccountError` becomes its exact line
/// on stderr (`Error: Invalid credentials`, `Not logged in — run sonde login`...) and
/// exit status 1; a `SondeError` is reported as every other command reports it, a missing
/// measurement with the command that lists them.
func reportingAccountErrors(_ body: () async throws -> Void) async throws {
    try await reportingErrors {
        do {
            try await body()
        } catch let error as AccountError {
            AccountOutput.standardError(error.withCommandHint.description)
            throw ExitCode.failure
        } catch var error as SondeError where error.code == .notFound {
            // Only measurements are looked up by id here; the library names no command.
            error.message += "; see sonde measurements list"
            throw error
        }
    }
}

enum AccountOutput {
    /// One line on standard output, written at once (not left in stdio's buffer, so the
    /// order with stderr holds and a killed process has said what it did).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Bytes on standard output (a listing's lines).
    /// - Throws: `SondeError(.outputClosed)` when its reader has gone (with SIGPIPE ignored),
    ///   `SondeError(.io)` when it cannot be written.
    static func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try SystemCall.writeAll(STDOUT_FILENO, bytes)
        } catch  where error.isBrokenPipe {
            throw SondeError(.outputClosed, "output closed by its reader")
        } catch {
            throw SondeError(.io, "standard output: \(error)")
        }
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A command that works through `Services`: `run()` builds the live ones from the
/// environment and reports errors; `run(with:)` is the command itself, so a test or
/// another front end can hand it substitutes.
protocol ServiceCommand: AsyncParsableCommand {
    /// `--database`: which store `run()` opens.
    var store: StoreOptions { get }
    func run(with services: Services) async throws
}

extension ServiceCommand {
    func run() async throws {
        try await reportingAccountErrors { try await run(with: Services.open(database: store.database)) }
    }
}
