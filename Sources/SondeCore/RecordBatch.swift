/// Consecutive frames of measurements for every channel of one source, in output order
/// (frame by frame, channels in file order within a frame).
///
/// A batch, not a record, crosses stage boundaries: one allocation per batch instead of
/// one per record keeps the exporter off the allocator in steady state.
public struct RecordBatch: Sendable {
    /// The input's name as the user gave it; written as the `file` column only when a run
    /// has several inputs.
    public var fileName: String
    public var channelNames: [String]
    /// Values per record (features, then bands).
    public var columnCount: Int
    /// Index `k` of the first frame in this batch.
    public var firstFrame: Int
    /// Number of frames in this batch.
    public var frameCount: Int
    /// H: frame `k` starts at sample `k * hop`.
    public var hop: Int
    /// Time of each frame's first sample.
    public var clock: RecordClock
    /// `frameCount * channelNames.count * columnCount` values, frame-major.
    public var values: [Double]
    /// The same records already encoded for the output format, when the pipeline was given
    /// an encoder; writers then copy these bytes instead of formatting again.
    public var encoded: EncodedRecords?

    public init(
        fileName: String, channelNames: [String], columnCount: Int, firstFrame: Int, frameCount: Int, hop: Int,
        clock: RecordClock, values: [Double], encoded: EncodedRecords? = nil
    ) {
        self.fileName = fileName
        self.channelNames = channelNames
        self.columnCount = columnCount
        self.firstFrame = firstFrame
        self.frameCount = frameCount
        self.hop = hop
        self.clock = clock
        self.values = values
        self.encoded = encoded
    }

    public var recordCount: Int { frameCount * channelNames.count }
}
