import Foundation
import SondeAccounts
import SondePipeline
import Synchronization

/// The lab's one device, shared by every user of the server: pairing belongs to it (the
/// machine's pairing file, the one `sonde device pair` writes), and at most one capture
/// runs on it at a time, so two users' measurements never interleave.
final class Instrument: Sendable {
    /// What Main shows.
    enum Status: Sendable, Equatable {
        case notConnected
        case idle(deviceID: String)
        case busy(deviceID: String, user: Account, since: Double)
    }

    private let connection: FileDeviceConnection
    private let profileText: String
    private let version: String
    private let longestCaptureSeconds: Double
    private let capture = Mutex<LiveCapture?>(nil)

    init(configDirectory: String, profileText: String, version: String, longestCaptureSeconds: Double) {
        connection = FileDeviceConnection(directory: URL(fileURLWithPath: configDirectory))
        self.profileText = profileText
        self.version = version
        self.longestCaptureSeconds = longestCaptureSeconds
    }

    func status() throws -> Status {
        if let running = capture.withLock({ $0 }) {
            return .busy(deviceID: running.deviceID, user: running.owner, since: running.startedAt)
        }
        guard let paired = try connection.current() else { return .notConnected }
        return .idle(deviceID: paired.id)
    }

    /// The pairing handshake (it takes a moment, as a real sensor's does).
    func pair() async throws {
        _ = try await connection.pair(profileText: profileText, profileSource: "default", seed: 1)
    }

    /// Starts a capture for `account`, or gives back the one it already runs (a second tab).
    /// - Throws: `WebError.deviceBusy` while another user measures, `.deviceNotConnected`.
    func start(for account: Account) throws -> LiveCapture {
        guard let paired = try connection.current() else { throw WebError.deviceNotConnected }
        let device = try paired.makeDevice()
        return try capture.withLock { current in
            if let current {
                guard current.owner.id == account.id else { throw WebError.deviceBusy(current.owner.email) }
                return current
            }
            let started = try LiveCapture(
                owner: account, deviceID: paired.id, device: device, version: version,
                longestSeconds: longestCaptureSeconds)
            current = started
            return started
        }
    }

    /// The capture `account` runs, if any.
    func capture(for account: Account) -> LiveCapture? {
        capture.withLock { $0?.owner.id == account.id ? $0 : nil }
    }

    /// Frees the device if `finished` still holds it.
    func release(_ finished: LiveCapture) {
        capture.withLock { current in
            if current === finished { current = nil }
        }
    }

    /// Discards a capture nobody has watched for `seconds` (its screen was left).
    func discardUnwatched(after seconds: Double) async {
        guard let running = capture.withLock({ $0 }), running.secondsUnwatched > seconds else { return }
        release(running)
        _ = await running.stop()
    }
}
