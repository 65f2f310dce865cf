/// The sink, handed to the exporter's task.
struct UncheckedSink: @unchecked Sendable {
    // @unchecked: only the writing thread calls it, one call at a time, and the caller
    // uses it again only after `run` has returned.
    let sink: any PipelineSink
    init(_ sink: any PipelineSink) { self.sink = sink }
}
