import Foundation
import SondeCore

/// `measurements.json` of `export --all`: each measurement's metadata and summary, in the
/// order of the listing, keys in a fixed order so that the file diffs cleanly.
public enum MeasurementIndex {
    public static func json(_ measurements: [SavedMeasurement]) -> String {
        JSONValue.linesText(
            measurements.map { measurement in
                .object([
                    "id": .integer(Int(measurement.id.rawValue)),
                    "recorded_at": .string(UTCTimestamp.rfc3339(epochSeconds: measurement.recordedAt)),
                    "device": .string(measurement.deviceID),
                    "comment": .string(measurement.comment),
                    "settings": embedded(measurement.settings),
                    "channels": .strings(measurement.channelNames),
                    "columns": .strings(measurement.columns),
                    "frames": .integer(measurement.frameCount),
                    "file": .string("measurement-\(measurement.id)"),
                    "summary": .array(
                        measurement.summary.channels.map { channel in
                            .object([
                                "channel": .string(channel.name),
                                "mean": .object(
                                    zip(measurement.summary.columns, channel.means).map { .init($0, .number($1)) }),
                            ])
                        }),
                ])
            })
    }

    /// Settings that are valid JSON go in as JSON; anything else as a string.
    private static func embedded(_ text: String) -> JSONValue {
        guard (try? JSONText.read(text.utf8, what: "settings", { try $0.value() })) != nil else {
            return .string(text)
        }
        return .verbatim(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
