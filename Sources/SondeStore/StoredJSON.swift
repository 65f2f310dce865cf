import Foundation
import SondeCore
import SondeMeasurements

/// The JSON columns of `measurements`, with field names that are part of the schema.
enum StoredJSON {
    private struct Clock: Codable {
        var kind: String
        var sampleRate: Double
        var offset: Double?
        var epochOfFirstSample: Double?
    }

    private struct Summary: Codable {
        struct Channel: Codable {
            var name: String
            var means: [Double]
        }
        var frames: Int
        var columns: [String]
        var channels: [Channel]
    }

    static func encode(_ clock: RecordClock) throws -> String {
        switch clock {
        case .seconds(let rate, let offset):
            try text(Clock(kind: "seconds", sampleRate: rate, offset: offset))
        case .wallClock(let rate, let epoch):
            try text(Clock(kind: "wall_clock", sampleRate: rate, epochOfFirstSample: epoch))
        }
    }

    static func decodeClock(_ text: String) throws -> RecordClock {
        let clock = try JSONDecoder().decode(Clock.self, from: Data(text.utf8))
        switch (clock.kind, clock.offset, clock.epochOfFirstSample) {
        case ("seconds", let offset?, _): return .seconds(sampleRate: clock.sampleRate, offset: offset)
        case ("wall_clock", _, let epoch?): return .wallClock(sampleRate: clock.sampleRate, epochOfFirstSample: epoch)
        default: throw SondeError(.invalidInput, "stored record clock '\(text)': unknown kind")
        }
    }

    static func encode(_ summary: MeasurementSummary) throws -> String {
        try text(
            Summary(
                frames: summary.frameCount, columns: summary.columns,
                channels: summary.channels.map { Summary.Channel(name: $0.name, means: $0.means) }
            )
        )
    }

    static func decodeSummary(_ text: String) throws -> MeasurementSummary {
        let summary = try JSONDecoder().decode(Summary.self, from: Data(text.utf8))
        return MeasurementSummary(
            columns: summary.columns, channels: summary.channels.map { .init(name: $0.name, means: $0.means) },
            frameCount: summary.frames
        )
    }

    static func encode(_ strings: [String]) throws -> String {
        try text(strings)
    }

    static func decodeStrings(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    private static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
