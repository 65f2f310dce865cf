/// Connecting to the (simulated) sensor, remembered between runs. A protocol so commands
/// can be tested with a stand-in and a real device transport can be added later.
public protocol DeviceConnectionService: Sendable {
    /// Performs the connection handshake and remembers the device.
    func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice
    /// Remembers a device already checked (a real instrument, opened once by the caller).
    func remember(_ device: PairedDevice) throws
    /// The remembered device, if any.
    func current() throws -> PairedDevice?
    /// Forgets the device; returns false if none was paired.
    func unpair() throws -> Bool
}
