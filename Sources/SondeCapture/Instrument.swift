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
    /// The capture holding the device, if any.
    private let running = Mutex<LiveCapture?>(nil)

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
        return try await connection.pair(profileText: profileText, profileSource: profileSource, seed: seed)
    }

    /// Forgets the device; false when none was paired.
    /// - Throws: `SondeError(.busy)` during a capture.
    public func unpair() throws -> Bool {
        try refuseWhileBusy("unpair")
        return try connection.unpair()
    }

    /// The paired device, if any.
    public func paired() throws -> PairedDevice? {
        try connection.current()
    }

    public func status() throws -> InstrumentStatus {
        if let capture = running.withLock({ $0 }) {
            return .busy(deviceID: capture.device.id, user: capture.owner, since: capture.startedAt)
        }
        guard let device = try connection.current() else { return .notConnected }
        return .idle(deviceID: device.id)
    }

    /// The capture recording now (whoever's), so another tab of its owner can show it; nil
    /// once its recording ended, even before it is saved.
    public var currentCapture: LiveCapture? { running.withLock { $0 } }

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
        return try running.withLock { running in
            if let other = running { throw Self.busy(other) }
            let capture = try LiveCapture(
                id: id, owner: owner, device: device, settings: settings, duration: duration, options: options,
                release: { [weak self] in self?.finished(id: id) })
            // A graph that ends at once releases after this lock: the order holds.
            running = capture
            return capture
        }
    }

    /// Frees the device when capture `id`'s recording ends (stop, duration, device error);
    /// a later capture holding it is left alone.
    private func finished(id: String) {
        running.withLock { if $0?.id == id { $0 = nil } }
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
        if let capture = running.withLock({ $0 }) {
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
