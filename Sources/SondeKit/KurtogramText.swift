public import SondeCore
import SondeDSP

/// What `sonde kurtogram` prints: a CSV line per channel's best band, or (JSON) the best
/// band and the whole grid. Here rather than in the executable so the columns are tested
/// without starting it.
public enum KurtogramText {
    /// The CSV header and one line per channel.
    public static func table(_ channels: [KurtogramRun.Channel]) -> [String] {
        ["channel,level,centre_hz,bandwidth_hz,kurtosis,envelope_line_hz"]
            + channels.map { channel in
                let best = channel.kurtogram.best
                return [
                    channel.name, best.level.compactDescription, best.centre.compactDescription,
                    best.bandwidth.compactDescription, best.kurtosis.compactDescription,
                    channel.line.map { $0.frequency.compactDescription } ?? "",
                ].joined(separator: ",")
            }
    }

    /// One object per channel: rate, levels, the best cell, the envelope line and every row.
    public static func json(_ channels: [KurtogramRun.Channel]) -> JSONValue {
        .array(channels.map(object))
    }

    static func object(_ channel: KurtogramRun.Channel) -> JSONValue {
        let (kurtogram, best) = (channel.kurtogram, channel.kurtogram.best)
        return .object([
            "channel": .string(channel.name), "rate": .number(kurtogram.sampleRate),
            "levels": .integer(kurtogram.levels),
            "best": .object([
                "row": .integer(best.row), "level": .number(best.level), "band": .integer(best.band),
                "centre": .number(best.centre), "bandwidth": .number(best.bandwidth),
                "kurtosis": .number(best.kurtosis),
            ]),
            "envelope_line": .optional(channel.line?.frequency),
            "grid": .array(
                kurtogram.rows.map { row in
                    .object([
                        "level": .number(row.level), "bandwidth": .number(row.bandwidth),
                        "kurtosis": .array(row.values.map(JSONValue.number)),
                    ])
                }),
        ])
    }
}
