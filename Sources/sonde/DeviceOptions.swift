import ArgumentParser
import Foundation
import SondeCore
import SondePipeline

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

    /// Every flag's value in its range, named by its option: amplitudes within a 32-bit
    /// sample's ±3.4e38 (the device rounds to float32), frequencies above 0 and at most
    /// 1e9 Hz, drift periods of at least 1e-6 s.
    func validate() throws {
        func amplitude(_ value: Double, _ option: String, isNoise: Bool = false) throws {
            if let problem = DeviceProfile.amplitudeProblem(value, isNoise: isNoise) {
                throw ValidationError("\(option): \(problem)")
            }
        }
        func numbers(_ text: String, _ option: String, separator: Character, count: ClosedRange<Int>) throws -> [Double]
        {
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
            if let problem = DeviceProfile.frequencyProblem(head[0]) {
                throw ValidationError("--tone \(spec): \(problem)")
            }
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
            guard values[0] >= 0 else {
                throw ValidationError("--impulses \(impulses): rate must be 0 or more per second")
            }
            try amplitude(values[1], "--impulses \(impulses)")
        }
    }

    /// True when flags describe a device (rather than a profile or the paired one).
    var describesDevice: Bool {
        !tone.isEmpty || noise != nil || offset != nil || drift != nil || impulses != nil
    }

    /// Profile text from `--profile` (a file in the format before 0.8 is read with a
    /// warning that says how to convert it) or from the flags, as TOML; nil when neither
    /// is given.
    /// - Parameters:
    ///   - input: `--rate` and `--channels` shape a device made from flags; with a profile
    ///     they are refused (the profile sets both), as is `--sample-type` (raw input only).
    ///   - defaultRate: the rate of a device made from flags without `--rate`.
    func profileText(
        input: InputOptions, defaultRate: Double = 1000, defaultChannels: Int = 1
    ) throws -> (text: String, source: String)? {
        if input.sampleType != nil, profile != nil || describesDevice {
            throw SondeError(
                .invalidArgument, "--sample-type applies to raw input (--input FILE), not to a simulated device")
        }
        if let profile {
            guard !describesDevice else {
                throw SondeError(
                    .invalidArgument,
                    "--profile and device flags (--tone, --noise, ...) cannot be combined; put the settings in the profile"
                )
            }
            try Self.refuseInputShape(input, device: "the profile \(profile)")
            let text = try DeviceProfile.text(path: profile)
            guard DeviceProfile.isLegacyText(text) else { return (text, profile) }
            // Parsed before the note, so that a broken old file gives its error alone.
            let converted = try DeviceProfile.parse(text, source: profile).tomlText
            Diagnostics.note(
                "\(profile) is in the profile format before sonde 0.8, which a later version will not read; "
                    + "convert it to TOML with: sonde device convert-profile \(profile) -o NEW.toml")
            return (converted, profile)
        }
        guard describesDevice else { return nil }
        var channel = DeviceProfile.Channel(name: "")
        for spec in tone {
            // validate() has checked every flag's spelling and range.
            let parts = spec.split(separator: ":").map(String.init)
            let numbers = parts.prefix(2).compactMap(Double.init)
            guard numbers.count == 2 else {
                throw SondeError(
                    .invalidArgument, "--tone \(spec): expected FREQ:AMPLITUDE[:H2,H3,...], e.g. 50:1:0.2,0.1")
            }
            let harmonics = parts.count == 3 ? parts[2].split(separator: ",").compactMap { Double($0) } : []
            channel.tones.append(DeviceProfile.Tone(frequency: numbers[0], amplitude: numbers[1], harmonics: harmonics))
        }
        if let noise { channel.noise = noise }
        if let offset { channel.offset = offset }
        if let values = drift?.split(separator: ":").compactMap({ Double($0) }), values.count == 2 {
            channel.driftAmplitude = values[0]
            channel.driftPeriod = values[1]
        }
        if let values = impulses?.split(separator: ":").compactMap({ Double($0) }), values.count == 2 {
            channel.impulseRate = values[0]
            channel.impulseAmplitude = values[1]
        }
        let channelList = (0..<(input.channels ?? defaultChannels)).map { index in
            var named = channel
            named.name = "ch\(index)"
            return named
        }
        let device = try DeviceProfile(name: "custom", sampleRate: input.rate ?? defaultRate, channels: channelList)
        return (device.tomlText, "command line")
    }

    /// Refuses `--rate`, `--channels` and `--sample-type` for a device that sets its own
    /// (a profile, the paired device): they would otherwise be silently ignored.
    static func refuseInputShape(_ input: InputOptions, device: String) throws {
        let given = [
            ("--rate", input.rate != nil), ("--channels", input.channels != nil),
            ("--sample-type", input.sampleType != nil),
        ]
        .filter(\.1).map(\.0)
        guard !given.isEmpty else { return }
        throw SondeError(
            .invalidArgument,
            "\(given.joined(separator: " and ")) cannot apply to \(device), which sets its own rate and channels; "
                + "they apply to raw input (--input FILE) and to a device described by --tone, --noise, ...")
    }
}
