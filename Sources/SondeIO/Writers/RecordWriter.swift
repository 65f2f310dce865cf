public import SondeCore

/// Turns record batches into one of the formats of docs/features.md section 6.
public protocol RecordWriter: AnyObject {
    /// How this writer turns one record into bytes; the pipeline's workers use it to
    /// encode in parallel. Nil for a columnar format (Parquet), which takes values.
    var encoder: (any RecordEncoder)? { get }

    /// Appends every record of `batch`, in order.
    func write(_ batch: RecordBatch) throws
    /// Writes what closes the format (JSON's `]`) and commits the output.
    func finish() throws
    /// The run's workers for encoding the writer would otherwise do alone, or nil when the
    /// run is ending: what is pending is best encoded then (`PipelineSink.lend`).
    func lend(_ work: ParallelWork?) throws
}

extension RecordWriter {
    public func lend(_ work: ParallelWork?) throws {}
}
