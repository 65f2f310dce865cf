/// Turns one record into its bytes in an output format.
///
/// Formatting numbers is a large share of a run (a shortest round-trip Double costs about
/// as much as a feature), so the pipeline's workers encode the records they computed, in
/// parallel, and the exporter only copies bytes in order.
public protocol RecordEncoder: Sendable {
    /// Appends one complete record: a CSV line, an NDJSON line, or one JSON object of an
    /// array (the writer adds the separators between objects).
    func encode(
        fileName: String, channel: String, frame: Int, start: Int, clock: RecordClock,
        values: UnsafeBufferPointer<Double>, into bytes: inout [UInt8]
    )
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
