package import SondeCore
package import SondeMeasurements

/// The JSON columns of `measurements`, with field names that are part of the schema.
package enum StoredJSON {
    // Written with `JSONValue` (keys sorted, as the rows written before it have them);
    // read with `StoredJSONReader`. A listing passes one reader for all its rows.

    package static func encode(_ clock: RecordClock) throws -> String {
        switch clock {
        case .seconds(let rate, let offset):
            JSONValue.object(["kind": .string("seconds"), "offset": .number(offset), "sampleRate": .number(rate)]).text
        case .wallClock(let rate, let epoch):
            JSONValue.object([
                "epochOfFirstSample": .number(epoch), "kind": .string("wall_clock"), "sampleRate": .number(rate),
            ]).text
        }
    }

    package static func decodeClock(
        _ text: String, with reader: StoredJSONReader = StoredJSONReader()
    ) throws
        -> RecordClock
    {
        try reader.clock(text)
    }

    package static func encode(_ summary: MeasurementSummary) throws -> String {
        JSONValue.object([
            "channels": .array(
                summary.channels.map { .object(["means": .numbers($0.means), "name": .string($0.name)]) }),
            "columns": .strings(summary.columns),
            "frames": .integer(summary.frameCount),
        ]).text
    }

    /// A summary's listed part (`MeasurementListing.listedPart`), its columns first: a
    /// listing then reads it in one pass (`StoredJSONReader.mainValues`).
    package static func encodeListed(_ summary: MeasurementSummary) throws -> String {
        let listed = MeasurementListing.listedPart(of: summary)
        return JSONValue.object([
            "columns": .strings(listed.columns),
            "frames": .integer(listed.frameCount),
            "channels": .array(
                listed.channels.map { .object(["name": .string($0.name), "means": .numbers($0.means)]) }),
        ]).text
    }

    package static func decodeSummary(
        _ text: String, with reader: StoredJSONReader = StoredJSONReader()
    ) throws
        -> MeasurementSummary
    {
        try reader.summary(text)
    }

    package static func encode(_ strings: [String]) throws -> String {
        JSONValue.strings(strings).text
    }

    package static func decodeStrings(
        _ text: String, with reader: StoredJSONReader = StoredJSONReader()
    ) throws
        -> [String]
    {
        try reader.strings(text)
    }
}
