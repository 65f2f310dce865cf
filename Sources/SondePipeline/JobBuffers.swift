/// The pools of one input's jobs: samples go out to the workers, values and encoded
/// records come back to the exporter, and all return here once written.
final class JobBuffers: Sendable {
    let samples: Pool<SampleBlock>
    let values: Pool<[Double]>
    let bytes: Pool<[UInt8]>
    let ends: Pool<[Int]>
    let results: Pool<[ResultSlot<MeasuredFrames>]>
    let assemblies: Pool<RecordAssembly>
    let slots: Pool<ResultSlot<MeasuredFrames>>

    /// - Parameters:
    ///   - jobsInFlight: buffers of each kind the queues can hold at once, all channels.
    ///   - blockCapacity: samples per channel block (`ChannelProcessor.blockCapacity`).
    ///   - channelCount: the channels of each ticket.
    init(jobsInFlight: Int, blockCapacity: Int, channelCount: Int) {
        samples = .sampleBlocks(capacity: blockCapacity, limit: jobsInFlight)
        values = .arrays(limit: jobsInFlight)
        bytes = .arrays(limit: jobsInFlight)
        ends = .arrays(limit: jobsInFlight)
        results = .arrays(limit: jobsInFlight)
        assemblies = .recordAssemblies(channelCount: channelCount, limit: jobsInFlight)
        slots = .resultSlots(limit: jobsInFlight)
    }
}
