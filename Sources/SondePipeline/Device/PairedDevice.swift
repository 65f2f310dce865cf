public import Foundation
import SondeCore

/// The device a user has paired with: what `sonde device status` reports and what
/// `sonde stream`, `sonde measure` and the app read from when no input is named. The one
/// device concept: the simulated pump (a profile and a seed) or a real instrument.
public struct PairedDevice: Sendable, Equatable {
    public var id: String
    /// Where the profile came from (a path, or `default`); empty for a real instrument.
    public var profileSource: String
    /// The profile's text, kept so the pairing still works if the file moves.
    public var profileText: String
    public var seed: UInt64
    public var pairedAt: Date
    /// The real instrument, or nil for the simulated device (pairings before issue 46 have none).
    public var instrument: InstrumentSettings?

    /// A real instrument's pairing.
    public init(instrument: InstrumentSettings, pairedAt: Date) {
        id = instrument.deviceID
        profileSource = ""
        profileText = ""
        seed = 0
        self.pairedAt = pairedAt
        self.instrument = instrument
    }

    init(id: String, profileSource: String, profileText: String, seed: UInt64, pairedAt: Date) {
        self.id = id
        self.profileSource = profileSource
        self.profileText = profileText
        self.seed = seed
        self.pairedAt = pairedAt
        instrument = nil
    }

    /// What it is, for Main and `device status`: `ALSA hw:1,0, 2 channels at 48 kHz, i32le`,
    /// or `simulated healthy-pump`.
    public var kindDescription: String {
        if let instrument { return instrument.description }
        let name = (try? DeviceProfile.parse(profileText, source: profileSource))?.name ?? profileSource
        return "simulated \(name)"
    }

    /// `device.json`'s text: written with `JSONValue`, read back by `init(reading:)`.
    var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .string(id)), .init("pairedAt", .string(pairedAt.formatted(.iso8601))),
            .init("profileSource", .string(profileSource)),
            .init("profileText", .string(profileText)), .init("seed", .verbatim(String(seed))),
        ]
        if let instrument { members.append(.init("instrument", instrument.json)) }
        return .object(members)
    }

    /// Reads `json`'s object; keys in any order, unknown keys skipped (a later sonde's).
    /// - Throws: `SondeError(.invalidInput)` when a field is missing or of the wrong kind.
    init(reading reader: inout JSONReader<StrtodNumbers>) throws {
        var id: String?
        var profileSource: String?
        var profileText: String?
        var seed: UInt64?
        var pairedAt: String?
        var instrument: InstrumentSettings?
        try reader.object { key, reader in
            switch key {
            case "id": id = try reader.string()
            case "profileSource": profileSource = try reader.string()
            case "profileText": profileText = try reader.string()
            case "seed": seed = try reader.unsignedInteger()
            case "pairedAt": pairedAt = try reader.string()
            case "instrument": instrument = reader.takeNull() ? nil : try InstrumentSettings(reading: &reader)
            default: try reader.skipValue()
            }
        }
        guard let id, let profileSource, let profileText, let seed, let pairedAt,
            let date = try? Date(pairedAt, strategy: .iso8601)
        else { throw reader.failure("a pairing without its id, profile, seed or time") }
        self.init(id: id, profileSource: profileSource, profileText: profileText, seed: seed, pairedAt: date)
        self.instrument = instrument
    }

    /// The simulated device this pairing describes.
    /// - Throws: `SondeError(.invalidArgument)` for a real instrument (open it with
    ///   SondeInstruments' `InstrumentSources`), `.invalidInput` for a damaged profile.
    public func makeDevice() throws -> SimulatedDevice {
        if let instrument {
            throw SondeError(.invalidArgument, "the paired device is \(instrument.description), not a simulated one")
        }
        return SimulatedDevice(profile: try DeviceProfile.parse(profileText, source: profileSource), seed: seed)
    }
}
