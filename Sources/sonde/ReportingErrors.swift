import ArgumentParser
import SondeCore
import SondeKit

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
