import Foundation
import SondeCore

/// What a simulated sensor produces: a rate and, per channel, tones with harmonics, white
/// noise, a DC offset, slow drift and impulse faults.
///
/// Profile files are TOML (`DeviceProfile+TOML.swift`; sample-data/*.toml are examples):
///
///     name = "healthy-pump"
///     rate = 25600                              # Hz
///     [[channels]]
///     name = "accel_x"
///     tones = [{ frequency = 49.5, amplitude = 0.8, harmonics = [0.2, 0.05] }]
///     noise = 0.02                              # white noise RMS
///     offset = 0                                # DC
///     drift = { amplitude = 0.01, period = 60 } # slow sine, period in seconds
///     impulses = { rate = 0, amplitude = 0 }    # faults per second, peak (decaying ring)
///
/// The format before 0.8 (`DeviceProfile+LegacyText.swift`) is still read, with a warning.
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
            throw SondeError(
                .invalidArgument, "device rate \(sampleRate.compactDescription) Hz: expected 1 to 1000000 Hz")
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
                    .invalidArgument,
                    "channel \(channel.name): drift period \(channel.driftPeriod) s: expected at least 1e-6 s")
            }
        }
        self.name = name
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Reads and parses a profile file.
    public static func load(path: String) throws -> DeviceProfile {
        try parse(try text(path: path), source: path)
    }

    /// Parses profile text: TOML, or the format before 0.8 (`isLegacyText`).
    /// - Parameter source: the file name for error messages.
    /// - Throws: `SondeError(.invalidInput)` naming the file and the line or key.
    public static func parse(_ text: String, source: String) throws -> DeviceProfile {
        try isLegacyText(text) ? parseLegacyText(text, source: source) : parseTOML(text, source: source)
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
