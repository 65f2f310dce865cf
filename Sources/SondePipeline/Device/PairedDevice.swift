public import Foundation
import SondeCore

/// The device a user has paired with: what `sonde device status` reports and what
/// `sonde stream` and `sonde measure` read from when no input is named.
public struct PairedDevice: Decodable, Sendable, Equatable {
    public var id: String
    /// Where the profile came from (a path, or `default`).
    public var profileSource: String
    /// The profile's text, kept so the pairing still works if the file moves.
    public var profileText: String
    public var seed: UInt64
    public var pairedAt: Date

    /// `device.json`'s text: written with `JSONValue`, read back with `JSONDecoder`.
    var json: JSONValue {
        .object([
            "id": .string(id), "pairedAt": .string(pairedAt.formatted(.iso8601)),
            "profileSource": .string(profileSource),
            "profileText": .string(profileText), "seed": .verbatim(String(seed)),
        ])
    }

    /// The simulated device this pairing describes.
    public func makeDevice() throws -> SimulatedDevice {
        SimulatedDevice(profile: try DeviceProfile.parse(profileText, source: profileSource), seed: seed)
    }
}
