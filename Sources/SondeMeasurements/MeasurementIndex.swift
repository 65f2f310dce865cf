import Foundation
import SondeCore

/// `measurements.json` of `export --all`: each measurement's metadata and summary, in the
/// order of the listing, keys in a fixed order so that the file diffs cleanly.
enum MeasurementIndex {
    static func json(_ measurements: [SavedMeasurement]) -> String {
        var out = "[\n"
        for (index, measurement) in measurements.enumerated() {
            var fields: [(String, String)] = [
                ("id", measurement.id.description),
                ("recorded_at", string(UTCTimestamp.rfc3339(epochSeconds: measurement.recordedAt))),
                ("device", string(measurement.deviceID)),
                ("comment", string(measurement.comment)),
                ("settings", embedded(measurement.settings)),
                ("channels", "[" + measurement.channelNames.map(string).joined(separator: ",") + "]"),
                ("columns", "[" + measurement.columns.map(string).joined(separator: ",") + "]"),
                ("frames", String(measurement.frameCount)),
                ("file", string("measurement-\(measurement.id)")),
            ]
            let summary = measurement.summary.channels.map { channel in
                let means = zip(measurement.summary.columns, channel.means).map { "\(string($0)):\(number($1))" }
                return "{\"channel\":\(string(channel.name)),\"mean\":{\(means.joined(separator: ","))}}"
            }
            fields.append(("summary", "[" + summary.joined(separator: ",") + "]"))
            out += "  {" + fields.map { "\(string($0)):\($1)" }.joined(separator: ", ") + "}"
            out += index + 1 < measurements.count ? ",\n" : "\n"
        }
        return out + "]\n"
    }

    /// Settings that are valid JSON go in as JSON; anything else as a string.
    private static func embedded(_ text: String) -> String {
        let data = Data(text.utf8)
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            return string(text)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func number(_ value: Double) -> String {
        value.isFinite ? value.description : "null"
    }

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
