public import Foundation
import SondeCore

/// `sonde device release`'s request to the running `sonde serve` and its answer: two small
/// files in the directory of the device's pairing file (`FileDeviceConnection`), the request
/// naming a token, the answer named by it.
///
/// Why a file and not a signal or an HTTP endpoint: releasing the device is the
/// administrator's act, and the administrator is whoever runs the server, the person who
/// may pair the device (docs/deploy.md) by writing this same directory, so the right to
/// write here is the right to release, with no account, password or network port to add.
/// A signal would need the server's process id (a pid file, stale after a crash or reused
/// by another process), can only set a flag from its handler, and carries no answer back;
/// SIGTERM and SIGINT already mean "stop serving". The server's background tick (every
/// 0.2 s) already runs to keep ended captures as drafts; looking for one file there costs
/// one failed `stat`.
public struct DeviceReleaseRequest: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    var requestFile: URL { directory.appendingPathComponent("device-release.request") }
    func answerFile(_ token: String) -> URL { directory.appendingPathComponent("device-release.\(token).answer") }

    /// The command's side: asks the server to release the device and waits for its answer.
    /// - Parameter timeout: seconds to wait for a server to answer.
    /// - Returns: the server's sentence (whose measurement it stopped, or that none ran).
    /// - Throws: `SondeError(.io)` when the request cannot be written; `.notFound` when no
    ///   server answered in `timeout` (none runs with this home), the request then withdrawn.
    public func request(timeout: Double = 10) async throws -> String {
        let token = UUID().uuidString
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((token + "\n").utf8).write(to: requestFile, options: .atomic)
        } catch {
            throw SondeError(
                .io, "cannot write the release request \(requestFile.path): \(error.localizedDescription)")
        }
        let answer = answerFile(token)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let data = try? Data(contentsOf: answer) {
                try? FileManager.default.removeItem(at: answer)
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        // Withdrawn only if it is still ours: a server that took it answers into a file
        // nobody reads, removed at its next take.
        if (try? String(contentsOf: requestFile, encoding: .utf8))?.hasPrefix(token) == true {
            try? FileManager.default.removeItem(at: requestFile)
        }
        throw SondeError(
            .notFound,
            "no sonde serve answered within \(Int(timeout)) s: none runs with this home (\(directory.path)); a capture in `sonde measure` ends with Ctrl-C"
        )
    }

    /// The server's side: the token of a waiting request, which is removed (each request is
    /// answered once), or nil when there is none.
    public func take() -> String? {
        guard let data = try? Data(contentsOf: requestFile) else { return nil }
        try? FileManager.default.removeItem(at: requestFile)
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // Only a token this type writes names a file; anything else is dropped unanswered.
        guard UUID(uuidString: token) != nil else { return nil }
        return token
    }

    /// The server's side: answers request `token` with `message`.
    public func answer(_ token: String, _ message: String) {
        try? Data((message + "\n").utf8).write(to: answerFile(token), options: .atomic)
    }
}
