/// Turns one record into its bytes in an output format.
///
/// Formatting numbers is a large share of a run (a shortest round-trip Double costs about
/// as much as a feature), so the pipeline's workers encode the records they computed, in
/// parallel, and the exporter only copies bytes in order.
public protocol RecordEncoder: Sendable {
    /// The text around a record's time that is the same for every record of one input and
    /// channel (its file and channel fields, keys and separators): encoded once per input,
    /// not once per record.
    func fields(fileName: String, channel: String) -> RecordFields

    /// Appends one complete record: a CSV line, an NDJSON line, or one JSON object of an
    /// array (the writer adds the separators between objects).
    func encode(
        _ fields: RecordFields, frame: Int, start: Int, clock: RecordClock, values: UnsafeBufferPointer<Double>,
        into bytes: inout [UInt8]
    )
}

/// A record's fixed text, as an encoder's `fields(fileName:channel:)` made it: the bytes
/// before its time and those between its time and its frame number.
public struct RecordFields: Sendable {
    public var beforeTime: [UInt8]
    public var afterTime: [UInt8]

    public init(beforeTime: [UInt8], afterTime: [UInt8]) {
        self.beforeTime = beforeTime
        self.afterTime = afterTime
    }
}

/// Records already encoded by the workers: per channel, the bytes of its records in frame
/// order and where each record ends.
public struct EncodedRecords: Sendable {
    public var bytes: [[UInt8]]
    public var ends: [[Int]]

    public init(bytes: [[UInt8]], ends: [[Int]]) {
        self.bytes = bytes
        self.ends = ends
    }

    /// The bytes of frame `frame` (0-based within the batch) of `channel`.
    public func record(frame: Int, channel: Int) -> ArraySlice<UInt8> {
        let start = frame == 0 ? 0 : ends[channel][frame - 1]
        return bytes[channel][start..<ends[channel][frame]]
    }
}
