public import SondeCore

/// Where a run's records go, input by input. Every call comes from one thread, in input
/// order: `begin`, that input's batches, then `end`, before the next input's `begin`.
public protocol PipelineSink: AnyObject {
    /// Input `index` has been opened and its first records are coming (none, for an input
    /// that fails to open).
    func begin(input index: Int, name: String, format: StreamFormat) throws
    func write(_ batch: RecordBatch) throws
    func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws
    /// The run's workers, lent for work the writing thread would otherwise do alone, before
    /// the first input; nil after the last, the moment to finish such work while they are
    /// there. Called on the writing thread, in order with the other calls.
    func lend(_ work: ParallelWork?) throws
}

extension PipelineSink {
    public func lend(_ work: ParallelWork?) throws {}
}
