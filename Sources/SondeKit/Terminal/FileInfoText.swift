import Foundation
public import SondeCore
public import SondeIO

/// What `sonde info` prints of a file: its format and rate, then a table of every entry
/// (variable, dataset, channel) with whether it can be a channel and why not, or the same as
/// JSON. Here rather than in the executable so the columns are tested without starting it.
public enum FileInfoText {
    /// The heading line, the aligned table (the last column unpadded, no trailing blanks)
    /// and the notes, joined by newlines.
    public static func table(_ info: FileInfo) -> String {
        var lines = ["\(info.path): \(info.format)" + (info.sampleRate.map { ", \($0.compactDescription) Hz" } ?? "")]
        let header = ["name", "type", "shape", "channel", "properties"]
        let rows = info.entries.map { entry in
            [
                entry.name, entry.type, entry.shape, entry.refusal.map { "no: \($0)" } ?? "yes",
                entry.properties.joined(separator: " "),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            lines.append(
                row.enumerated().map { column, text in
                    column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression))
        }
        lines += info.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// One object: file, format, rate (null when the file has none), entries and notes.
    public static func json(_ info: FileInfo) -> JSONValue {
        .object([
            "file": .string(info.path), "format": .string(info.format), "rate": .optional(info.sampleRate),
            "entries": .array(
                info.entries.map { entry in
                    .object([
                        "name": .string(entry.name), "type": .string(entry.type), "shape": .string(entry.shape),
                        "channel": .bool(entry.refusal == nil),
                        "refusal": entry.refusal.map(JSONValue.string) ?? .null,
                        "properties": .array(entry.properties.map(JSONValue.string)),
                    ])
                }),
            "notes": .array(info.notes.map(JSONValue.string)),
        ])
    }
}
