import Foundation
import SondeCore

/// The profile format before 0.8, read once more so old files keep working; the CLI warns
/// and names `sonde device convert-profile`. Plain text, one setting per line, `#` starts a
/// comment:
///
///     name = healthy-pump
///     rate = 25600
///     [channel accel_x]
///     tone = 49.5 0.8 0.2 0.05   # Hz, amplitude, then amplitudes of harmonics 2, 3, ...
///     noise = 0.02               # white noise RMS
///     offset = 0                 # DC
///     drift = 0.01 60            # amplitude, period in seconds (slow sine)
///     impulses = 0 0             # faults per second, peak amplitude (decaying ring)
extension DeviceProfile {
    /// Whether `text` is in the format before 0.8: it has a `[channel NAME]` line, which
    /// TOML cannot hold.
    public static func isLegacyText(_ text: String) -> Bool {
        text.split(separator: "\n").contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("[channel ") }
    }

    /// Parses the format before 0.8 (see the file's documentation).
    /// - Throws: `SondeError(.invalidInput)` naming the file and line.
    static func parseLegacyText(_ text: String, source: String) throws -> DeviceProfile {
        var name = (source as NSString).lastPathComponent
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        var rate: Double?
        var channels: [Channel] = []
        var sectionLines: [Int] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let location = SourceLocation(file: source, line: index + 1)
            let line =
                rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.dropFirst().hasPrefix("channel ") else {
                    throw SondeError(
                        .invalidInput, "expected a section like [channel accel_x], found \(line)", at: location)
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
                    throw SondeError(
                        .invalidInput,
                        "\(key): expected \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) or more") numbers, found '\(value)'",
                        at: location)
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
                default:
                    throw SondeError(
                        .invalidInput,
                        "unknown setting '\(key)' before any [channel NAME] section; expected name or rate",
                        at: location)
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
                guard n[0] >= 0 else {
                    throw SondeError(.invalidInput, "impulses: rate must be 0 or more per second", at: location)
                }
                _ = try amplitudes([n[1]])
                channels[last].impulseRate = n[0]
                channels[last].impulseAmplitude = n[1]
            default:
                throw SondeError(
                    .invalidInput, "unknown channel setting '\(key)'; expected tone, noise, offset, drift or impulses",
                    at: location)
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
}
