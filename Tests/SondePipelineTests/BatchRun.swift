import SondeCore

@testable import SondePipeline

/// Runs sources through their processors, one after the other, handing each record batch
/// to `emit` in output order. The single-threaded reference path the graph tests compare
/// the streaming engine with: it must produce exactly the same batches.
enum BatchRun {
    /// What a finished run did.
    struct Summary: Sendable {
        var samplesPerChannel = 0
        var records = 0
    }

    /// Reads `source` to its end through `processor`.
    /// - Throws: the source's errors (with file, line and column) and `emit`'s.
    static func run(
        source: any SampleSource,
        processor: SourceProcessor,
        emit: (RecordBatch) throws -> Void
    ) throws -> Summary {
        let channelCount = source.format.channelCount
        let block = UnsafeMutableBufferPointer<Double>.allocate(capacity: processor.maximumBlock * channelCount)
        defer { block.deallocate() }
        var summary = Summary()
        while true {
            let frames = try source.read(into: block)
            if frames == 0 { break }
            summary.samplesPerChannel += frames
            let filled = UnsafeBufferPointer(rebasing: block[0..<(frames * channelCount)])
            if let batch = processor.process(interleaved: filled) {
                summary.records += batch.recordCount
                try emit(batch)
            }
        }
        return summary
    }
}
