import Hummingbird
import SondeCore

/// One page update as a Server-Sent Event: the latest values and, in some updates, the
/// figures, as JSON in an `update` event; `end` tells the page the stream is over (so it
/// stops reconnecting).
struct LiveUpdate {
    /// A figure the server drew, placed by the page as is.
    struct Figure {
        var title: String
        var svg: String
    }

    var records: Int
    /// The latest frame's time, RFC 3339 UTC.
    var time: String
    var channels: [String]
    var columns: [String]
    /// Per channel, per column; null where a value is not finite.
    var values: [[Double?]]
    var droppedSamples: Int
    /// Nil in an update of values only: the page keeps the figures it has.
    var trends: [Figure]?
    var spectrum: [Figure]?

    init(snapshot: LiveSnapshot, droppedSamples: Int, trends: [Figure]?, spectrum: [Figure]?) {
        records = snapshot.records
        time = UTCTimestamp.rfc3339(epochSeconds: snapshot.latestTime)
        channels = snapshot.channels
        columns = snapshot.columns
        values = snapshot.channels.indices.map { channel in
            snapshot.columns.indices.map { column in
                let value = snapshot.value(channel: channel, column: column)
                return value.isFinite ? value : nil
            }
        }
        self.droppedSamples = droppedSamples
        self.trends = trends
        self.spectrum = spectrum
    }

    /// The update as an SSE `update` event, its data written by `JSONValue` (sonde's one
    /// JSON writer); a nil figure list is left out, so the page keeps the figures it has.
    func event() -> ByteBuffer {
        func figures(_ list: [Figure]) -> JSONValue {
            .array(list.map { .object(["title": .string($0.title), "svg": .string($0.svg)]) })
        }
        var members: [JSONValue.Member] = [
            .init("records", .integer(records)), .init("time", .string(time)), .init("channels", .strings(channels)),
            .init("columns", .strings(columns)),
            .init("values", .array(values.map { .array($0.map { $0.map(JSONValue.number) ?? .null }) })),
            .init("droppedSamples", .integer(droppedSamples)),
        ]
        if let trends { members.append(.init("trends", figures(trends))) }
        if let spectrum { members.append(.init("spectrum", figures(spectrum))) }
        var data: [UInt8] = []
        JSONValue.object(members).write(into: &data)
        var bytes = ByteBuffer(string: "event: update\ndata: ")
        bytes.writeBytes(data)
        bytes.writeString("\n\n")
        return bytes
    }

    static let end = ByteBuffer(string: "event: end\ndata: {}\n\n")
}
