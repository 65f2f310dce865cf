public import SondePipeline

/// A simulated device described on the command line (`--tone`, `--noise`, `--offset`,
/// `--drift`, `--impulses`), parsed and range-checked in one place: the option group's
/// `validate()` and the profile it builds both use this, so no flag can be accepted by one
/// and read differently (or silently skipped) by the other.
public struct DeviceFlags: Sendable, Equatable {
    public var tones: [DeviceProfile.Tone] = []
    /// White noise RMS on every channel.
    public var noise: Double?
    /// DC offset of every channel.
    public var offset: Double?
    /// Slow drift: amplitude and period in seconds (at least 1e-6 s).
    public var drift: (amplitude: Double, period: Double)?
    /// Impulse faults: rate per second (0 or more) and amplitude.
    public var impulses: (rate: Double, amplitude: Double)?

    /// A flag whose value is out of range or misspelt; `message` names the option and the
    /// value as the user typed them.
    public struct Invalid: Error, Sendable, Equatable {
        public var message: String
    }

    /// Every flag's value in its range, named by its option: amplitudes within a 32-bit
    /// sample's ±3.4e38 (the device rounds to float32), frequencies above 0 and at most
    /// 1e9 Hz, drift periods of at least 1e-6 s.
    /// - Throws: `Invalid` for the first flag that is wrong.
    public init(
        tone: [String] = [], noise: Double? = nil, offset: Double? = nil, drift: String? = nil,
        impulses: String? = nil
    ) throws(Invalid) {
        for spec in tone {
            let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3 else {
                throw Invalid(message: "--tone \(spec): expected FREQ:AMPLITUDE[:H2,H3,...], e.g. 50:1:0.2,0.1")
            }
            let head = try Self.numbers(parts[0] + ":" + parts[1], "--tone", separator: ":", count: 2...2)
            if let problem = DeviceProfile.frequencyProblem(head[0]) {
                throw Invalid(message: "--tone \(spec): \(problem)")
            }
            try Self.amplitude(head[1], "--tone \(spec)")
            var harmonics: [Double] = []
            if parts.count == 3 {
                harmonics = try Self.numbers(parts[2], "--tone", separator: ",", count: 1...30)
                for harmonic in harmonics { try Self.amplitude(harmonic, "--tone \(spec)") }
            }
            tones.append(DeviceProfile.Tone(frequency: head[0], amplitude: head[1], harmonics: harmonics))
        }
        if let noise { try Self.amplitude(noise, "--noise", isNoise: true) }
        if let offset { try Self.amplitude(offset, "--offset") }
        self.noise = noise
        self.offset = offset
        if let drift {
            let values = try Self.numbers(drift, "--drift", separator: ":", count: 2...2)
            try Self.amplitude(values[0], "--drift \(drift)")
            guard values[1] >= DeviceProfile.smallestDriftPeriod else {
                throw Invalid(message: "--drift \(drift): period \(values[1]) s: expected at least 1e-6 s")
            }
            self.drift = (values[0], values[1])
        }
        if let impulses {
            let values = try Self.numbers(impulses, "--impulses", separator: ":", count: 2...2)
            guard values[0] >= 0 else {
                throw Invalid(message: "--impulses \(impulses): rate must be 0 or more per second")
            }
            try Self.amplitude(values[1], "--impulses \(impulses)")
            self.impulses = (values[0], values[1])
        }
    }

    /// True when flags describe a device (rather than a profile or the paired one).
    public var describesDevice: Bool {
        !tones.isEmpty || noise != nil || offset != nil || drift != nil || impulses != nil
    }

    /// The device the flags describe: every channel the same, named `ch0`, `ch1`, ...
    /// - Throws: `SondeError` when the rate or the channel count is out of range.
    public func profile(rate: Double, channels: Int) throws -> DeviceProfile {
        var channel = DeviceProfile.Channel(name: "")
        channel.tones = tones
        if let noise { channel.noise = noise }
        if let offset { channel.offset = offset }
        if let drift { (channel.driftAmplitude, channel.driftPeriod) = drift }
        if let impulses { (channel.impulseRate, channel.impulseAmplitude) = impulses }
        let channelList = (0..<channels).map { index in
            var named = channel
            named.name = "ch\(index)"
            return named
        }
        return try DeviceProfile(name: "custom", sampleRate: rate, channels: channelList)
    }

    public static func == (lhs: DeviceFlags, rhs: DeviceFlags) -> Bool {
        lhs.tones == rhs.tones && lhs.noise == rhs.noise && lhs.offset == rhs.offset
            && lhs.drift.map { [$0.amplitude, $0.period] } == rhs.drift.map { [$0.amplitude, $0.period] }
            && lhs.impulses.map { [$0.rate, $0.amplitude] } == rhs.impulses.map { [$0.rate, $0.amplitude] }
    }

    private static func amplitude(_ value: Double, _ option: String, isNoise: Bool = false) throws(Invalid) {
        if let problem = DeviceProfile.amplitudeProblem(value, isNoise: isNoise) {
            throw Invalid(message: "\(option): \(problem)")
        }
    }

    private static func numbers(
        _ text: String, _ option: String, separator: Character, count: ClosedRange<Int>
    ) throws(Invalid) -> [Double] {
        let words = text.split(separator: separator, omittingEmptySubsequences: false)
        let values = words.compactMap { Double($0) }.filter(\.isFinite)
        guard values.count == words.count, count.contains(values.count) else {
            throw Invalid(message: "\(option) \(text): expected finite numbers separated by '\(separator)'")
        }
        return values
    }
}
