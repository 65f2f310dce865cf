public import Foundation
import SondeCore

/// Pairing stored as a small JSON file in the configuration directory.
public struct FileDeviceConnection: DeviceConnectionService {
    public let file: URL
    /// The handshake delay range, in milliseconds (a real connection takes a moment).
    public var handshakeMilliseconds: ClosedRange<UInt64> = 300...800

    /// - Parameter directory: where `device.json` lives (created on pairing).
    public init(directory: URL) {
        file = directory.appendingPathComponent("device.json")
    }

    public func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice {
        let device = SimulatedDevice(profile: try DeviceProfile.parse(profileText, source: profileSource), seed: seed)
        try await Task.sleep(for: .milliseconds(UInt64.random(in: handshakeMilliseconds)))
        let paired = PairedDevice(
            id: device.deviceID, profileSource: profileSource, profileText: profileText, seed: seed, pairedAt: Date())
        try remember(paired)
        return paired
    }

    public func remember(_ paired: PairedDevice) throws {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(paired.json.text.utf8).write(to: file, options: .atomic)
        } catch {
            throw SondeError(.io, "cannot remember the device in \(file.path): \(error.localizedDescription)")
        }
    }

    public func current() throws -> PairedDevice? {
        guard let bytes = try SmallFile.read(file.path, limit: 1 << 20, what: "pairing file") else { return nil }
        do {
            return try JSONText.read(bytes, what: file.path) { try PairedDevice(reading: &$0) }
        } catch {
            throw SondeError(.invalidInput, "\(file.path) is damaged; run sonde device unpair, then sonde device pair")
        }
    }

    public func unpair() throws -> Bool {
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            throw SondeError(.io, "cannot remove \(file.path): \(error.localizedDescription)")
        }
        return true
    }
}
