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
