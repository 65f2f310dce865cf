import Foundation
import Hummingbird
import SondeCore

/// One page update as a Server-Sent Event: the latest values and, in some updates, the
/// figures, as JSON in an `update` event; `end` tells the page the stream is over (so it
/// stops reconnecting).
struct LiveUpdate: Encodable {
    /// A figure the server drew, placed by the page as is.
    struct Figure: Encodable {
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

    /// The update as an SSE `update` event.
    func event() throws -> ByteBuffer {
        var bytes = ByteBuffer(string: "event: update\ndata: ")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        bytes.writeBytes(try encoder.encode(self))
        bytes.writeString("\n\n")
        return bytes
    }

    static let end = ByteBuffer(string: "event: end\ndata: {}\n\n")
}
