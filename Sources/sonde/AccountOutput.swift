import ArgumentParser
import Foundation
import SondeAccounts
import SondeCore
import SondeKit

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

/// A command that works through `LocalServices`: `run()` opens them from the
/// environment and reports errors; `run(with:)` is the command itself, so a test or
/// another front end can hand it substitutes.
protocol ServiceCommand: AsyncParsableCommand {
    /// `--database`: which store `run()` opens.
    var store: StoreOptions { get }
    func run(with services: LocalServices) async throws
}

extension ServiceCommand {
    func run() async throws {
        try await reportingAccountErrors { try await run(with: LocalServices.open(database: store.database)) }
    }
}
