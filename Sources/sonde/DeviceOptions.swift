import ArgumentParser
import Foundation
import SondeCore
import SondePipeline

/// Which simulated device to use: a profile file, or flags describing one.
struct DeviceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Device profile file (see sample-data/*.profile).", valueName: "FILE"))
    var profile: String?

    @Option(name: .long, parsing: .unconditional, help: "Seed of the device's noise and faults: same seed, same samples.")
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("A tone on every channel: FREQ:AMPLITUDE[:H2,H3,...] (repeatable).", valueName: "TONE"))
    var tone: [String] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("White noise RMS on every channel.", valueName: "RMS"))
    var noise: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("DC offset of every channel.", valueName: "V"))
    var offset: Double?

    @Option(name: .long, help: ArgumentHelp("Slow drift: AMPLITUDE:PERIOD_SECONDS.", valueName: "A:P"))
    var drift: String?

    @Option(name: .long, help: ArgumentHelp("Impulse faults: RATE_PER_SECOND:AMPLITUDE.", valueName: "R:A"))
    var impulses: String?

    /// Every flag's value in its range, named by its option: amplitudes within a 32-bit
    /// sample's ±3.4e38 (the device rounds to float32), frequencies above 0 and at most
    /// 1e9 Hz, drift periods of at least 1e-6 s.
    func validate() throws {
        func amplitude(_ value: Double, _ option: String, isNoise: Bool = false) throws {
            if let problem = DeviceProfile.amplitudeProblem(value, isNoise: isNoise) {
                throw ValidationError("\(option): \(problem)")
            }
        }
        func numbers(_ text: String, _ option: String, separator: Character, count: ClosedRange<Int>) throws -> [Double] {
            let words = text.split(separator: separator, omittingEmptySubsequences: false)
            let values = words.compactMap { Double($0) }.filter(\.isFinite)
            guard values.count == words.count, count.contains(values.count) else {
                throw ValidationError("\(option) \(text): expected finite numbers separated by '\(separator)'")
            }
            return values
        }
        for spec in tone {
            let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else {
                throw ValidationError("--tone \(spec): expected FREQ:AMPLITUDE[:H2,H3,...], e.g. 50:1:0.2,0.1")
            }
            let head = try numbers(parts[0] + ":" + parts[1], "--tone", separator: ":", count: 2...2)
            if let problem = DeviceProfile.frequencyProblem(head[0]) { throw ValidationError("--tone \(spec): \(problem)") }
            try amplitude(head[1], "--tone \(spec)")
            if parts.count == 3 {
                for harmonic in try numbers(parts[2], "--tone", separator: ",", count: 1...30) {
                    try amplitude(harmonic, "--tone \(spec)")
                }
            }
        }
        if let noise { try amplitude(noise, "--noise", isNoise: true) }
        if let offset { try amplitude(offset, "--offset") }
        if let drift {
            let values = try numbers(drift, "--drift", separator: ":", count: 2...2)
            try amplitude(values[0], "--drift \(drift)")
            guard values[1] >= DeviceProfile.smallestDriftPeriod else {
                throw ValidationError("--drift \(drift): period \(values[1]) s: expected at least 1e-6 s")
            }
        }
        if let impulses {
            let values = try numbers(impulses, "--impulses", separator: ":", count: 2...2)
            guard values[0] >= 0 else { throw ValidationError("--impulses \(impulses): rate must be 0 or more per second") }
            try amplitude(values[1], "--impulses \(impulses)")
        }
    }

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
            return (try DeviceProfile.text(path: profile), profile)
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
