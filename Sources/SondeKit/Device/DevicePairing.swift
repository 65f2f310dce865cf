import Foundation
import SondeCapture
import SondeCore
public import SondeIO
import SondeInstruments
public import SondePipeline

/// `sonde device pair`'s two kinds of device: a real instrument (a sound card or a program
/// writing raw samples), checked by capturing from it before it is remembered, so a card
/// that cannot give the rate fails now rather than at the first measurement; or a
/// simulated one from a profile (the healthy pump unless one is given).
public enum DevicePairing {
    /// Checks and remembers a real instrument.
    /// - Parameter describesSimulated: whether the command was also given a profile or a
    ///   simulated device's flags, which a real instrument refuses.
    /// - Returns: how its captures are read (the buffering), when the check says.
    public static func pair(
        instrument: InstrumentSettings, describesSimulated: Bool, connection: any DeviceConnectionService
    ) throws -> String? {
        if describesSimulated {
            throw SondeError(
                .invalidArgument,
                "--alsa and --command pair a real instrument; --profile, --tone, ... describe a simulated one")
        }
        Diagnostics.progress("Connecting…")
        let buffering = try InstrumentSources.check(instrument)
        try connection.remember(PairedDevice(instrument: instrument, pairedAt: Date()))
        return buffering
    }

    /// Pairs a simulated device.
    /// - Parameters:
    ///   - profile: the profile's text and where it came from; nil for the healthy pump,
    ///     which has its own rate and channels, so an input shape given is refused.
    public static func pairSimulated(
        profile: (text: String, source: String)?, inputShape: SampleSourceOptions, seed: UInt64,
        connection: any DeviceConnectionService
    ) async throws -> PairedDevice {
        var chosen = (text: Instrument.defaultProfile, source: "default")
        if let profile {
            chosen = profile
        } else {
            try SimulatedProfile.refuseInputShape(inputShape, device: "the default device (the healthy pump)")
        }
        Diagnostics.progress("Connecting…")
        return try await connection.pair(profileText: chosen.text, profileSource: chosen.source, seed: seed)
    }

    /// A profile in the format before 0.8, as TOML: the same device, the same samples for a seed.
    public static func convertedProfile(path: String) throws -> String {
        try DeviceProfile.parse(DeviceProfile.text(path: path), source: path).tomlText
    }
}
