import Foundation
package import SondeCore
package import SondeMeasurements

/// The JSON columns of `measurements`, with field names that are part of the schema.
package enum StoredJSON {
    private struct Clock: Decodable {
        var kind: String
        var sampleRate: Double
        var offset: Double?
        var epochOfFirstSample: Double?
    }

    private struct Summary: Decodable {
        struct Channel: Decodable {
            var name: String
            var means: [Double]
        }
        var frames: Int
        var columns: [String]
        var channels: [Channel]
    }

    // Written with `JSONValue` (keys sorted, as the rows written before it have them);
    // read with `JSONDecoder` into the Codable shapes above.

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

    package static func decodeClock(_ text: String) throws -> RecordClock {
        let clock = try JSONDecoder().decode(Clock.self, from: Data(text.utf8))
        switch (clock.kind, clock.offset, clock.epochOfFirstSample) {
        case ("seconds", let offset?, _): return .seconds(sampleRate: clock.sampleRate, offset: offset)
        case ("wall_clock", _, let epoch?): return .wallClock(sampleRate: clock.sampleRate, epochOfFirstSample: epoch)
        default: throw SondeError(.invalidInput, "stored record clock '\(text)': unknown kind")
        }
    }

    package static func encode(_ summary: MeasurementSummary) throws -> String {
        JSONValue.object([
            "channels": .array(
                summary.channels.map { .object(["means": .numbers($0.means), "name": .string($0.name)]) }),
            "columns": .strings(summary.columns),
            "frames": .integer(summary.frameCount),
        ]).text
    }

    package static func decodeSummary(_ text: String) throws -> MeasurementSummary {
        let summary = try JSONDecoder().decode(Summary.self, from: Data(text.utf8))
        return MeasurementSummary(
            columns: summary.columns, channels: summary.channels.map { .init(name: $0.name, means: $0.means) },
            frameCount: summary.frames
        )
    }

    package static func encode(_ strings: [String]) throws -> String {
        JSONValue.strings(strings).text
    }

    package static func decodeStrings(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}
