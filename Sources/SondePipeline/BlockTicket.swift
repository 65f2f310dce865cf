/// The jobs of one block of frames, one result per channel, in the order the exporter needs.
struct BlockTicket: Sendable {
    var firstFrame: Int
    var frameCount: Int
    var results: [ResultSlot<MeasuredFrames>]
    /// The jobs' `RecordAssembly`, when they have one.
    var assembly: RecordAssembly?
}
