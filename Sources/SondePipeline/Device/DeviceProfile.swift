import Foundation
import SondeCore

/// What a simulated sensor produces: a rate and, per channel, tones with harmonics, white
/// noise, a DC offset, slow drift and impulse faults.
///
/// Profile files are plain text, one setting per line, `#` starts a comment:
///
///     name = healthy-pump
///     rate = 25600
///     [channel accel_x]
///     tone = 49.5 0.8 0.2 0.05   # Hz, amplitude, then amplitudes of harmonics 2, 3, ...
///     noise = 0.02               # white noise RMS
///     offset = 0                 # DC
///     drift = 0.01 60            # amplitude, period in seconds (slow sine)
///     impulses = 0 0             # faults per second, peak amplitude (decaying ring)
public struct DeviceProfile: Sendable, Equatable {
    public struct Tone: Sendable, Equatable {
        /// Hz, > 0.
        public var frequency: Double
        public var amplitude: Double
        /// Amplitudes of harmonics 2, 3, ...
        public var harmonics: [Double]

        public init(frequency: Double, amplitude: Double, harmonics: [Double] = []) {
            self.frequency = frequency
            self.amplitude = amplitude
            self.harmonics = harmonics
        }
    }

    public struct Channel: Sendable, Equatable {
        public var name: String
        public var tones: [Tone] = []
        /// RMS of the white noise.
        public var noise = 0.0
        public var offset = 0.0
        public var driftAmplitude = 0.0
        /// Seconds, > 0 when there is drift.
        public var driftPeriod = 60.0
        /// Expected faults per second.
        public var impulseRate = 0.0
        public var impulseAmplitude = 0.0

        public init(name: String) {
            self.name = name
        }

        /// The largest magnitude the channel's samples can reach: every amplitude at its
        /// peak at once, and the noise at its ±6σ cut (`Xoshiro256StarStar.nextGaussian`).
        public var peakMagnitude: Double {
            var peak = abs(offset) + abs(driftAmplitude) + 6 * abs(noise) + abs(impulseAmplitude)
            for tone in tones {
                peak += abs(tone.amplitude)
                for harmonic in tone.harmonics { peak += abs(harmonic) }
            }
            return peak
        }
    }

    public var name: String
    /// Hz, 1 to 1,000,000.
    public var sampleRate: Double
    public var channels: [Channel]

    public static let rateRange = 1.0...1_000_000.0

    /// The largest sample a channel may reach, just under a 32-bit float's 3.4028e38:
    /// beyond it the ADC rounding gives infinity, which no feature can measure.
    public static let largestSample = 3.4e38
    /// Tone frequencies in Hz: above 0 and at most 1e9 (the phase `f·n/rate` stays finite).
    public static let frequencyRange = 1e-300...1e9
    /// Drift periods in seconds: at least 1e-6 (the phase `n/(rate·period)` stays finite).
    public static let smallestDriftPeriod = 1e-6

    /// Why `value` cannot be an amplitude (tone, harmonic, offset, drift, impulse, noise
    /// RMS counted at 6σ), or nil when it can.
    public static func amplitudeProblem(_ value: Double, isNoise: Bool = false) -> String? {
        let peak = isNoise ? 6 * abs(value) : abs(value)
        guard value.isFinite, peak <= largestSample else {
            return isNoise
                ? "noise RMS \(value) reaches \(peak) at 6σ, beyond a 32-bit sample's range (±3.4e38)"
                : "\(value) is beyond a 32-bit sample's range (±3.4e38)"
        }
        return nil
    }

    /// Why `value` cannot be a tone frequency, or nil when it can.
    public static func frequencyProblem(_ value: Double) -> String? {
        frequencyRange.contains(value) ? nil : "tone frequency \(value) Hz: expected above 0 and at most 1e9 Hz"
    }

    public init(name: String, sampleRate: Double, channels: [Channel]) throws {
        guard Self.rateRange.contains(sampleRate) else {
            throw SondeError(.invalidArgument, "device rate \(sampleRate.compactDescription) Hz: expected 1 to 1000000 Hz")
        }
        guard !channels.isEmpty else {
            throw SondeError(.invalidArgument, "device profile '\(name)' has no channels; add a [channel NAME] section")
        }
        for channel in channels {
            for tone in channel.tones {
                if let problem = Self.frequencyProblem(tone.frequency) {
                    throw SondeError(.invalidArgument, "channel \(channel.name): \(problem)")
                }
            }
            guard channel.peakMagnitude <= Self.largestSample else {
                throw SondeError(
                    .invalidArgument,
                    "channel \(channel.name): its settings add up to peaks of \(channel.peakMagnitude), beyond a 32-bit "
                        + "sample's range (±3.4e38); expected smaller amplitudes")
            }
            guard !(channel.driftAmplitude != 0 && channel.driftPeriod < Self.smallestDriftPeriod) else {
                throw SondeError(
                    .invalidArgument, "channel \(channel.name): drift period \(channel.driftPeriod) s: expected at least 1e-6 s")
            }
        }
        self.name = name
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Parses profile text (see the type's documentation).
    /// - Parameter source: the file name for error messages.
    /// - Throws: `SondeError(.invalidInput)` naming the file and line.
    public static func parse(_ text: String, source: String) throws -> DeviceProfile {
        var name = (source as NSString).lastPathComponent
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        var rate: Double?
        var channels: [Channel] = []
        var sectionLines: [Int] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: source, line: index + 1)
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.dropFirst().hasPrefix("channel ") else {
                    throw SondeError(.invalidInput, "expected a section like [channel accel_x], found \(line)", at: location)
                }
                let channelName = line.dropFirst("[channel ".count).dropLast().trimmingCharacters(in: .whitespaces)
                channels.append(Channel(name: channelName.isEmpty ? "ch\(channels.count)" : channelName))
                sectionLines.append(index + 1)
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else {
                throw SondeError(.invalidInput, "expected KEY = VALUE, found \(line)", at: location)
            }
            let key = parts[0], value = parts[1]
            func numbers(_ count: ClosedRange<Int>) throws -> [Double] {
                let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                let numbers = words.compactMap { Double($0) }.filter(\.isFinite)
                guard count.contains(words.count), numbers.count == words.count else {
                    throw SondeError(.invalidInput, "\(key): expected \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) or more") numbers, found '\(value)'", at: location)
                }
                return numbers
            }
            /// `numbers`, each checked as an amplitude (noise: as an RMS).
            func amplitudes(_ values: [Double], isNoise: Bool = false) throws -> [Double] {
                for value in values {
                    if let problem = amplitudeProblem(value, isNoise: isNoise) {
                        throw SondeError(.invalidInput, "\(key): \(problem)", at: location)
                    }
                }
                return values
            }
            if channels.isEmpty {
                switch key {
                case "name": name = value
                case "rate": rate = try numbers(1...1)[0]
                default: throw SondeError(.invalidInput, "unknown setting '\(key)' before any [channel NAME] section; expected name or rate", at: location)
                }
                continue
            }
            let last = channels.count - 1
            switch key {
            case "tone":
                let n = try numbers(2...32)
                if let problem = frequencyProblem(n[0]) {
                    throw SondeError(.invalidInput, "tone: \(problem)", at: location)
                }
                _ = try amplitudes(Array(n.dropFirst()))
                channels[last].tones.append(Tone(frequency: n[0], amplitude: n[1], harmonics: Array(n.dropFirst(2))))
            case "noise": channels[last].noise = try amplitudes(numbers(1...1), isNoise: true)[0]
            case "offset": channels[last].offset = try amplitudes(numbers(1...1))[0]
            case "drift":
                let n = try numbers(2...2)
                _ = try amplitudes([n[0]])
                guard n[1] >= smallestDriftPeriod else {
                    throw SondeError(.invalidInput, "drift: period \(n[1]) s: expected at least 1e-6 s", at: location)
                }
                channels[last].driftAmplitude = n[0]
                channels[last].driftPeriod = n[1]
            case "impulses":
                let n = try numbers(2...2)
                guard n[0] >= 0 else { throw SondeError(.invalidInput, "impulses: rate must be 0 or more per second", at: location) }
                _ = try amplitudes([n[1]])
                channels[last].impulseRate = n[0]
                channels[last].impulseAmplitude = n[1]
            default:
                throw SondeError(.invalidInput, "unknown channel setting '\(key)'; expected tone, noise, offset, drift or impulses", at: location)
            }
        }
        guard let rate else {
            throw SondeError(.invalidInput, "no 'rate = HZ' line", at: SourceLocation(file: source))
        }
        for (channel, line) in zip(channels, sectionLines) where !(channel.peakMagnitude <= largestSample) {
            throw SondeError(
                .invalidInput,
                "channel \(channel.name): its settings add up to peaks of \(channel.peakMagnitude), beyond a 32-bit "
                    + "sample's range (±3.4e38); expected smaller amplitudes",
                at: SourceLocation(file: source, line: line))
        }
        return try DeviceProfile(name: name, sampleRate: rate, channels: channels)
    }

    /// Reads and parses a profile file.
    public static func load(path: String) throws -> DeviceProfile {
        return try parse(try text(path: path), source: path)
    }

    /// Profiles are short: anything beyond 1 MiB, or not a regular file, is refused.
    public static let largestFile = 1 << 20

    /// The text of the profile file at `path`, read with `SmallFile`'s type and size limit.
    public static func text(path: String) throws -> String {
        guard let bytes = try SmallFile.read(path, limit: largestFile, what: "device profile") else {
            throw SondeError(.io, "cannot read device profile '\(path)'; expected a readable text file")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
