import SondeCore

/// A sink that hands every batch to one closure (`run(inputs:emit:)`).
final class EmittingSink: PipelineSink {
    let emit: @Sendable (RecordBatch) throws -> Void
    init(emit: @escaping @Sendable (RecordBatch) throws -> Void) { self.emit = emit }
    func begin(input index: Int, name: String, format: StreamFormat) throws {}
    func write(_ batch: RecordBatch) throws { try emit(batch) }
    func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {}
}
