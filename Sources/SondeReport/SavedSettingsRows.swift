import Foundation
import SondeCore

/// A saved measurement's settings (the JSON object its capture wrote, `PipelineSettings.json`)
/// as label and value rows for a person: "Window" "1024 samples", "Bands" "0–100 Hz,
/// 100–1000 Hz", instead of the JSON text. Keys this type does not know keep their name
/// as the label, so nothing saved is hidden; text that is not a JSON object is one row.
public enum SavedSettingsRows {
    public static func rows(_ text: String) -> [(label: String, value: String)] {
        guard case .object(let members)? = try? JSONText.value(text, what: "saved settings") else {
            return [("Saved settings", text)]
        }
        var object: [String: JSONValue] = [:]
        for member in members { object[member.key] = member.value }
        var rows: [(label: String, value: String)] = []
        for (key, label) in order where object[key] != nil {
            rows.append((label: label, value: value(object[key], key: key)))
        }
        let known = Set(order.map { $0.key })
        for key in object.keys.sorted() where !known.contains(key) {
            rows.append((label: key.replacingOccurrences(of: "_", with: " "), value: value(object[key], key: key)))
        }
        return rows
    }

    /// The settings in the order a person reads them, and their labels.
    private static let order: [(key: String, label: String)] = [
        ("rate", "Sample rate"), ("window", "Window"), ("hop", "Hop"), ("filters", "Filters"),
        ("features", "Features"), ("bands", "Bands"), ("columns", "Columns"), ("duration", "Duration"),
        ("velocity_band", "Velocity band"), ("input_unit", "Input unit"), ("velocity_unit", "Velocity unit"),
        ("reference", "Level reference (0 dB)"), ("sonde", "sonde version"),
    ]

    private static func value(_ json: JSONValue?, key: String) -> String {
        switch json {
        case .array(let list)?:
            if list.isEmpty { return key == "features" ? "all" : "none" }
            let items = list.map { value($0, key: "") }
            if key == "bands" {
                return items.map { FeatureLabel.name($0).replacingOccurrences(of: "Band power ", with: "") }
                    .joined(separator: ", ")
            }
            return items.joined(separator: key == "filters" ? ", then " : ", ")
        case .string(let string)?:
            return string + (key == "velocity_band" ? " Hz" : "")
        case .integer(let whole)?:
            return "\(whole)" + (units[key].map { " " + $0 } ?? "")
        case .number(let number)?:
            return number.compactDescription + (units[key].map { " " + $0 } ?? "")
        case .bool(let flag)?:
            return flag ? "yes" : "no"
        case nil, .null?:
            return "none"
        case .object?, .verbatim?:
            return json?.text ?? ""
        }
    }

    private static let units = ["rate": "Hz", "window": "samples", "hop": "samples"]
}
