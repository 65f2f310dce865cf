public import SondeCore
public import SondeIO
public import SondePipeline

/// Writes every input's records to one output (`-o`, or standard output).
public final class SingleOutputSink: PipelineSink {
    private let writer: any RecordWriter
    public private(set) var notes: [String] = []
    private let frameLength: Int

    public init(writer: any RecordWriter, frameLength: Int) {
        self.writer = writer
        self.frameLength = frameLength
    }

    public func begin(input index: Int, name: String, format: StreamFormat) throws {}

    public func write(_ batch: RecordBatch) throws {
        try writer.write(batch)
    }

    public func lend(_ work: ParallelWork?) throws {
        try writer.lend(work)
    }

    /// Closes the format and commits the output.
    public func finish() throws {
        try writer.finish()
    }

    public func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {
        if case .finished(let summary) = outcome {
            notes += summary.notes(name: name, frameLength: frameLength)
        }
    }
}
