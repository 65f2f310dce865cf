import Foundation
import SondeCore
import TOMLKit

/// Device profiles as TOML: parsed with TOMLKit, checked key by key so a mistake names the
/// file and the setting (`channels[2].tones[1].frequency`), and written back (`tomlText`).
extension DeviceProfile {
    /// Parses a TOML profile (see the type's documentation).
    /// - Throws: `SondeError(.invalidInput)` with the file and, for syntax, line and column.
    static func parseTOML(_ text: String, source: String) throws -> DeviceProfile {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let place = SourceLocation(file: source, line: error.source.begin.line, column: error.source.begin.column)
            throw SondeError(.invalidInput, "not a TOML device profile: \(error.description)", at: place)
        }
        let reader = ProfileReader(source: source)
        try reader.onlyKeys(table, ["name", "rate", "channels"], at: "")
        var name = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
        if let value = table["name"] { name = try reader.string(value, at: "name") }
        guard let rateValue = table["rate"] else {
            throw reader.error("no rate; expected a line like rate = 25600 (Hz)")
        }
        let rate = try reader.number(rateValue, at: "rate")
        guard let channelTables = table["channels"] else {
            throw reader.error("no channels; add a [[channels]] table per channel")
        }
        var channels: [Channel] = []
        for (index, value) in try reader.array(channelTables, at: "channels").enumerated() {
            let path = "channels[\(index + 1)]"
            channels.append(try reader.channel(try reader.table(value, at: path), at: path, index: index))
        }
        do {
            return try DeviceProfile(name: name, sampleRate: rate, channels: channels)
        } catch let error as SondeError {
            throw SondeError(.invalidInput, error.message, at: SourceLocation(file: source))
        }
    }

    /// The profile as TOML that `parse` reads back to the same profile: every number in
    /// its shortest round-trip spelling. Written here rather than by TOMLKit's serializer
    /// so that the spelling of numbers, and the layout, are the documented ones.
    public var tomlText: String {
        var lines = ["name = \(Self.tomlString(name))", "rate = \(Self.tomlNumber(sampleRate))"]
        for channel in channels {
            lines.append("")
            lines.append("[[channels]]")
            lines.append("name = \(Self.tomlString(channel.name))")
            if !channel.tones.isEmpty {
                lines.append("tones = [")
                for tone in channel.tones {
                    var fields =
                        "frequency = \(Self.tomlNumber(tone.frequency)), amplitude = \(Self.tomlNumber(tone.amplitude))"
                    if !tone.harmonics.isEmpty {
                        fields += ", harmonics = [\(tone.harmonics.map(Self.tomlNumber).joined(separator: ", "))]"
                    }
                    lines.append("    { \(fields) },")
                }
                lines.append("]")
            }
            lines.append("noise = \(Self.tomlNumber(channel.noise))")
            lines.append("offset = \(Self.tomlNumber(channel.offset))")
            lines.append(
                "drift = { amplitude = \(Self.tomlNumber(channel.driftAmplitude)), period = \(Self.tomlNumber(channel.driftPeriod)) }"
            )
            lines.append(
                "impulses = { rate = \(Self.tomlNumber(channel.impulseRate)), amplitude = \(Self.tomlNumber(channel.impulseAmplitude)) }"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Swift's shortest round-trip spelling, which is also a TOML float or integer.
    private static func tomlNumber(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 0x1p53 ? String(Int64(value)) : "\(value)"
    }

    /// A TOML basic string.
    private static func tomlString(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                quoted += String(format: "\\u%04x", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

/// Reads typed values out of a parsed profile, naming the file and the setting's path in
/// every error.
private struct ProfileReader {
    let source: String

    func error(_ message: String) -> SondeError {
        SondeError(.invalidInput, message, at: SourceLocation(file: source))
    }

    func onlyKeys(_ table: TOMLTable, _ allowed: [String], at path: String) throws {
        for key in table.keys where !allowed.contains(key) {
            let place = path.isEmpty ? "" : " in \(path)"
            throw error("unknown setting '\(key)'\(place); expected \(allowed.joined(separator: ", "))")
        }
    }

    func number(_ value: any TOMLValueConvertible, at path: String) throws -> Double {
        guard let number = value.double ?? value.int.map(Double.init), number.isFinite else {
            throw error("\(path): expected a finite number, found \(value.debugDescription)")
        }
        return number
    }

    func string(_ value: any TOMLValueConvertible, at path: String) throws -> String {
        guard let text = value.string else { throw error("\(path): expected a quoted string") }
        return text
    }

    func array(_ value: any TOMLValueConvertible, at path: String) throws -> TOMLArray {
        guard let array = value.array else { throw error("\(path): expected an array") }
        return array
    }

    func table(_ value: any TOMLValueConvertible, at path: String) throws -> TOMLTable {
        guard let table = value.table else { throw error("\(path): expected a table") }
        return table
    }

    /// A number checked as an amplitude (noise: as an RMS, at 6σ).
    func amplitude(_ value: any TOMLValueConvertible, at path: String, isNoise: Bool = false) throws -> Double {
        let amplitude = try number(value, at: path)
        if let problem = DeviceProfile.amplitudeProblem(amplitude, isNoise: isNoise) {
            throw error("\(path): \(problem)")
        }
        return amplitude
    }

    func channel(_ table: TOMLTable, at path: String, index: Int) throws -> DeviceProfile.Channel {
        try onlyKeys(table, ["name", "tones", "noise", "offset", "drift", "impulses"], at: path)
        var channel = DeviceProfile.Channel(name: "ch\(index)")
        if let name = table["name"] { channel.name = try string(name, at: "\(path).name") }
        if let tones = table["tones"] {
            for (toneIndex, value) in try array(tones, at: "\(path).tones").enumerated() {
                let tonePath = "\(path).tones[\(toneIndex + 1)]"
                let tone = try self.table(value, at: tonePath)
                try onlyKeys(tone, ["frequency", "amplitude", "harmonics"], at: tonePath)
                guard let frequencyValue = tone["frequency"], let amplitudeValue = tone["amplitude"] else {
                    throw error("\(tonePath): expected { frequency = HZ, amplitude = A }")
                }
                let frequency = try number(frequencyValue, at: "\(tonePath).frequency")
                if let problem = DeviceProfile.frequencyProblem(frequency) {
                    throw error("\(tonePath).frequency: \(problem)")
                }
                var harmonics: [Double] = []
                if let list = tone["harmonics"] {
                    for (order, harmonic) in try array(list, at: "\(tonePath).harmonics").enumerated() {
                        harmonics.append(try amplitude(harmonic, at: "\(tonePath).harmonics[\(order + 1)]"))
                    }
                }
                channel.tones.append(
                    DeviceProfile.Tone(
                        frequency: frequency, amplitude: try amplitude(amplitudeValue, at: "\(tonePath).amplitude"),
                        harmonics: harmonics))
            }
        }
        if let noise = table["noise"] { channel.noise = try amplitude(noise, at: "\(path).noise", isNoise: true) }
        if let offset = table["offset"] { channel.offset = try amplitude(offset, at: "\(path).offset") }
        if let drift = table["drift"] {
            let driftTable = try self.table(drift, at: "\(path).drift")
            try onlyKeys(driftTable, ["amplitude", "period"], at: "\(path).drift")
            if let value = driftTable["amplitude"] {
                channel.driftAmplitude = try amplitude(value, at: "\(path).drift.amplitude")
            }
            if let value = driftTable["period"] {
                let period = try number(value, at: "\(path).drift.period")
                guard period >= DeviceProfile.smallestDriftPeriod else {
                    throw error("\(path).drift.period: \(period) s: expected at least 1e-6 s")
                }
                channel.driftPeriod = period
            }
        }
        if let impulses = table["impulses"] {
            let impulseTable = try self.table(impulses, at: "\(path).impulses")
            try onlyKeys(impulseTable, ["rate", "amplitude"], at: "\(path).impulses")
            if let value = impulseTable["rate"] {
                let rate = try number(value, at: "\(path).impulses.rate")
                guard rate >= 0 else { throw error("\(path).impulses.rate: must be 0 or more per second") }
                channel.impulseRate = rate
            }
            if let value = impulseTable["amplitude"] {
                channel.impulseAmplitude = try amplitude(value, at: "\(path).impulses.amplitude")
            }
        }
        return channel
    }
}
