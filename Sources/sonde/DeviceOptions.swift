import ArgumentParser
import Foundation
import SondeKit

/// Which simulated device to use: a profile file, or flags describing one.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Device profile, a TOML file (see sample-data/*.toml).", valueName: "FILE"))
    var profile: String?

    @Option(
        name: .long, parsing: .unconditional, help: "Seed of the device's noise and faults: same seed, same samples.")
    var seed: UInt64 = 1

    @Option(
        name: .long,
        help: ArgumentHelp("A tone on every channel: FREQ:AMPLITUDE[:H2,H3,...] (repeatable).", valueName: "TONE"))
    var tone: [String] = []

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("White noise RMS on every channel.", valueName: "RMS"))
    var noise: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("DC offset of every channel.", valueName: "V"))
    var offset: Double?

    @Option(name: .long, help: ArgumentHelp("Slow drift: AMPLITUDE:PERIOD_SECONDS.", valueName: "A:P"))
    var drift: String?

    @Option(name: .long, help: ArgumentHelp("Impulse faults: RATE_PER_SECOND:AMPLITUDE.", valueName: "R:A"))
    var impulses: String?

    /// Every flag's value in its range (`DeviceFlags` says which), named by its option.
    func validate() throws {
        _ = try flags()
    }

    /// The flags, parsed by the library's one parser; a wrong value is a usage error.
    func flags() throws -> DeviceFlags {
        do {
            return try DeviceFlags(tone: tone, noise: noise, offset: offset, drift: drift, impulses: impulses)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// True when flags describe a device (rather than a profile or the paired one).
    var describesDevice: Bool { (try? flags())?.describesDevice ?? true }

    /// Profile text from `--profile` or the flags (`SimulatedProfile.text`); nil when
    /// neither is given. `input`'s `--rate` and `--channels` shape a device made from flags.
    func profileText(
        input: InputOptions, defaultRate: Double = 1000, defaultChannels: Int = 1
    ) throws -> (text: String, source: String)? {
        try SimulatedProfile.text(
            profilePath: profile, flags: try flags(), shape: input.sampleSourceOptions(), defaultRate: defaultRate,
            defaultChannels: defaultChannels)
    }
}
