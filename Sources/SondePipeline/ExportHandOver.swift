import SondeCore

/// Moves sink calls from the exporter's task to the writing thread and makes them there,
/// in order, several per trip.
final class ExportHandOver: @unchecked Sendable {
    // @unchecked: put before each hand-over and taken on the writing thread; the thread's
    // lock and the exporter's await of each trip order every access.
    enum Event {
        case begin(index: Int, name: String, format: StreamFormat)
        case batch(RecordBatch, SourceStage)
        case end(index: Int, name: String, outcome: PipelineGraph.InputOutcome)
        case lend(ParallelWork?)
    }

    private var events: [Event] = []
    private let times: StageTimes
    private let sink: any PipelineSink

    init(times: StageTimes, sink: any PipelineSink) {
        self.times = times
        self.sink = sink
        events.reserveCapacity(8)
    }

    func put(_ event: consuming Event) {
        events.append(event)
    }

    /// Makes the calls put since the last trip; a written batch's buffers go back to its
    /// stage, and the batch leaves the list before it is written, so the pool holds the
    /// only reference to its buffers.
    func write() throws {
        var index = 0
        defer { events.removeAll(keepingCapacity: true) }
        while index < events.count {
            let event = events[index]
            events[index] = .end(index: -1, name: "", outcome: .finished(.empty))
            index += 1
            switch consume event {
            case .begin(let input, let name, let format):
                try sink.begin(input: input, name: name, format: format)
            case .batch(let batch, let stage):
                try times.time(.export) { try sink.write(batch) }
                stage.recycle(batch)
            case .end(let input, let name, let outcome):
                if input >= 0 { try sink.end(input: input, name: name, outcome: outcome) }
            case .lend(let work):
                try sink.lend(work)
            }
        }
    }
}
