import ArgumentParser
import Foundation
import SondeCore
import SondePipeline

/// Which simulated device to use: a profile file, or flags describing one.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Device profile file (see sample-data/*.profile).", valueName: "FILE"))
    var profile: String?

    @Option(name: .long, help: "Seed of the device's noise and faults: same seed, same samples.")
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("A tone on every channel: FREQ:AMPLITUDE[:H2,H3,...] (repeatable).", valueName: "TONE"))
    var tone: [String] = []

    @Option(name: .long, help: ArgumentHelp("White noise RMS on every channel.", valueName: "RMS"))
    var noise: Double?

    @Option(name: .long, help: ArgumentHelp("DC offset of every channel.", valueName: "V"))
    var offset: Double?

    @Option(name: .long, help: ArgumentHelp("Slow drift: AMPLITUDE:PERIOD_SECONDS.", valueName: "A:P"))
    var drift: String?

    @Option(name: .long, help: ArgumentHelp("Impulse faults: RATE_PER_SECOND:AMPLITUDE.", valueName: "R:A"))
    var impulses: String?

    /// True when flags describe a device (rather than a profile or the paired one).
    var describesDevice: Bool {
        !tone.isEmpty || noise != nil || offset != nil || drift != nil || impulses != nil
    }

    /// Profile text from `--profile` or from the flags; nil when neither is given.
    func profileText(rate: Double?, channels: Int?) throws -> (text: String, source: String)? {
        if let profile {
            guard !describesDevice else {
                throw SondeError(.invalidArgument, "--profile and device flags (--tone, --noise, ...) cannot be combined; put the settings in the profile")
            }
            guard let data = FileManager.default.contents(atPath: profile) else {
                throw SondeError(.io, "cannot read device profile '\(profile)'; expected a readable text file")
            }
            return (String(decoding: data, as: UTF8.self), profile)
        }
        guard describesDevice else { return nil }
        var lines = ["name = custom", "rate = \((rate ?? 1000).compactDescription)"]
        for index in 0..<(channels ?? 1) {
            lines.append("[channel ch\(index)]")
            for spec in tone {
                let parts = spec.split(separator: ":").map(String.init)
                guard parts.count >= 2, parts.count <= 3 else {
                    throw SondeError(.invalidArgument, "--tone \(spec): expected FREQ:AMPLITUDE[:H2,H3,...], e.g. 50:1:0.2,0.1")
                }
                lines.append("tone = " + ([parts[0], parts[1]] + (parts.count == 3 ? parts[2].split(separator: ",").map(String.init) : [])).joined(separator: " "))
            }
            if let noise { lines.append("noise = \(noise)") }
            if let offset { lines.append("offset = \(offset)") }
            if let drift { lines.append("drift = " + drift.replacingOccurrences(of: ":", with: " ")) }
            if let impulses { lines.append("impulses = " + impulses.replacingOccurrences(of: ":", with: " ")) }
        }
        return (lines.joined(separator: "\n"), "command line")
    }

    /// The healthy pump of `sample-data/healthy-pump.profile`, for `sonde device pair`
    /// without a profile.
    static let defaultProfile = """
        name = healthy-pump
        rate = 25600
        [channel accel_x]
        tone = 49.5 0.8 0.12 0.04
        tone = 346.5 0.15
        noise = 0.03
        drift = 0.01 60
        [channel accel_y]
        tone = 49.5 0.6 0.1 0.03
        tone = 346.5 0.1
        noise = 0.03
        offset = 9.81
        drift = 0.005 90
        """
}
