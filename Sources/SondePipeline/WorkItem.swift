import SondeCore
import SondeDSP

/// One channel's frames for a worker to measure.
struct WorkItem: Sendable {
    /// The job's frames: its first `(frameCount - 1) * hop + frameLength` samples.
    var samples: SampleBlock
    /// Where `samples` goes back to, and the worker's values and bytes come from.
    var buffers: JobBuffers
    var frameCount: Int
    var hop: Int
    var configuration: FeatureConfiguration
    var result: ResultSlot<MeasuredFrames>
    /// Where the ticket's channels put their encoded records in output order; nil for one
    /// channel (its records are in order) and without an encoder.
    var assembly: RecordAssembly?
    /// This job's channel, in the input's order.
    var channel: Int
    /// What the encoder needs besides the values.
    var encoder: (any RecordEncoder)?
    /// The encoder's fixed text for this input and channel.
    var fields: RecordFields?
    var fileName: String
    var channelName: String
    var firstFrame: Int
    var clock: RecordClock
}
