public import SondeAccounts
import SondeCore
public import SondePipeline
import Synchronization

/// The lab's one device, shared by every user of a process: pairing belongs to it (the
/// server), not to each user, and at most one capture runs on it at a time.
///
/// Pairing is remembered by its `DeviceConnectionService` (a file), so `sonde device pair`
/// and `sonde serve` on one machine see the same device.
public final class Instrument: Sendable {
    public let connection: any DeviceConnectionService
    private let state = Mutex(State())

    private struct State {
        /// The capture holding the device, if any.
        var running: LiveCapture?
        /// How the device's last capture failed, until a capture starts on it again.
        var failure: DeviceFailure?
    }

    public init(connection: any DeviceConnectionService) {
        self.connection = connection
    }

    /// The healthy pump of `sample-data/healthy-pump.toml`: what `sonde device pair` pairs
    /// without a profile, and what the app's Pair button pairs.
    public static let defaultProfile = """
        name = "healthy-pump"
        rate = 25600

        [[channels]]
        name = "accel_x"
        tones = [
            { frequency = 49.5, amplitude = 0.8, harmonics = [0.12, 0.04] },
            { frequency = 346.5, amplitude = 0.15 },
        ]
        noise = 0.03
        drift = { amplitude = 0.01, period = 60 }

        [[channels]]
        name = "accel_y"
        tones = [
            { frequency = 49.5, amplitude = 0.6, harmonics = [0.1, 0.03] },
            { frequency = 346.5, amplitude = 0.1 },
        ]
        noise = 0.03
        offset = 9.81
        drift = { amplitude = 0.005, period = 90 }
        """

    /// Connects (the handshake takes a moment) and remembers the device.
    /// - Throws: `SondeError(.busy)` during a capture; `.invalidInput` for a bad profile.
    public func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice {
        try refuseWhileBusy("pair again")
        let paired = try await connection.pair(profileText: profileText, profileSource: profileSource, seed: seed)
        state.withLock { $0.failure = nil }
        return paired
    }

    /// Forgets the device; false when none was paired.
    /// - Throws: `SondeError(.busy)` during a capture.
    public func unpair() throws -> Bool {
        try refuseWhileBusy("unpair")
        let unpaired = try connection.unpair()
        state.withLock { $0.failure = nil }
        return unpaired
    }

    /// The paired device, if any.
    public func paired() throws -> PairedDevice? {
        try connection.current()
    }

    /// Busy, free, or disconnected: a failure is shown only for the device paired now (the
    /// CLI may have paired another since, in another process).
    public func status() throws -> InstrumentStatus {
        let (capture, failure) = state.withLock { ($0.running, $0.failure) }
        if let capture {
            return .busy(deviceID: capture.device.id, user: capture.owner, since: capture.startedAt)
        }
        guard let device = try connection.current() else { return .notConnected }
        if let failure, failure.deviceID == device.id {
            return .disconnected(deviceID: device.id, failure: failure)
        }
        return .idle(deviceID: device.id)
    }

    /// How the paired device's last capture failed, if it did and no capture started since.
    public func lastFailure() throws -> DeviceFailure? {
        guard case .disconnected(_, let failure) = try status() else { return nil }
        return failure
    }

    /// The capture recording now (whoever's), so another tab of its owner can show it; nil
    /// once its recording ended, even before it is saved.
    public var currentCapture: LiveCapture? { state.withLock { $0.running } }

    /// Starts a capture on the paired device for `owner`.
    /// - Parameter duration: seconds, or nil to run until stopped.
    /// - Throws: `SondeError(.busy)` while another capture runs (the web answers 409),
    ///   `.invalidArgument` when no device is paired or the settings do not fit its rate.
    public func startCapture(
        for owner: Account, settings: PipelineSettings, duration: Double?, options: CaptureOptions
    ) throws -> LiveCapture {
        guard let device = try connection.current() else {
            throw SondeError(.invalidArgument, "Device not connected")
        }
        let id = Self.randomID()
        return try state.withLock { state in
            if let other = state.running { throw Self.busy(other) }
            let capture: LiveCapture
            do {
                capture = try LiveCapture(
                    id: id, owner: owner, device: device, settings: settings, duration: duration, options: options,
                    release: { [weak self] failure in self?.finished(id: id, device: device.id, failure: failure) })
            } catch let error as DeviceOpenFailure {
                // The device is not there (unplugged, the command cannot start): Main says so.
                state.failure = DeviceFailure(deviceID: device.id, error: error.underlying, at: WallClock.now())
                throw error.underlying
            }
            // A graph that ends at once releases after this lock: the order holds. The
            // device answered: a failure shown before is over (a new one replaces it).
            state.running = capture
            state.failure = nil
            return capture
        }
    }

    /// Frees the device when capture `id`'s recording ends (stop, duration, device error),
    /// and remembers a device error for Main; a later capture holding it is left alone.
    private func finished(id: String, device: String, failure: (any Error)?) {
        state.withLock { state in
            guard state.running?.id == id else { return }
            state.running = nil
            if let failure {
                state.failure = DeviceFailure(deviceID: device, error: failure, at: WallClock.now())
            }
        }
    }

    /// 128 random bits as 32 hex digits.
    private static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private func refuseWhileBusy(_ action: String) throws {
        if let capture = state.withLock({ $0.running }) {
            var error = Self.busy(capture)
            error.message += "; \(action) when it ends"
            throw error
        }
    }

    private static func busy(_ capture: LiveCapture) -> SondeError {
        SondeError(
            .busy,
            "The device is busy: \(capture.owner.email) has been measuring since "
                + UTCTimestamp.rfc3339(epochSeconds: capture.startedAt))
    }
}
