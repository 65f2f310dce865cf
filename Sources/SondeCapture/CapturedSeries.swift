public import SondeCore
public import SondeMeasurements
public import SondePipeline

/// A finished capture, not saved yet: what it will save and how it ended.
public struct CapturedSeries: Sendable {
    /// Everything but the comment, which the user gives at save time.
    public var capture: MeasurementCapture
    /// The per-window batches in order.
    public var batches: [RecordBatch]
    /// What the pipeline did (records, frames, whether it was stopped).
    public var summary: PipelineGraph.Summary

    public init(capture: MeasurementCapture, batches: [RecordBatch], summary: PipelineGraph.Summary) {
        self.capture = capture
        self.batches = batches
        self.summary = summary
    }

    /// Records (one per window and channel) in all batches.
    public var recordCount: Int { batches.reduce(0) { $0 + $1.recordCount } }
}
