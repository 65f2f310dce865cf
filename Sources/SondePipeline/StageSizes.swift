/// The sizes every stage of a run shares.
struct StageSizes: Sendable {
    var ringCapacity: Int
    var readFrames: Int
    var frameLength: Int
    var hop: Int
    /// Frames per job, fewer for long windows (see `init`).
    var framesPerJob: Int
    /// Jobs one channel can have in flight: the work queue (4J), the tickets (4J + 4),
    /// one being measured per worker, and one each at the framer and the exporter.
    var jobsInFlight: Int

    /// Samples one channel's job holds at most (512 KiB), unless one frame is longer: 128
    /// frames of a 65536-sample window would be 4.2 M samples a job, and the jobs in flight
    /// took peak RSS to 164-197 MiB; shorter jobs also let the framer in sooner.
    static let jobSampleLimit = 1 << 16

    init(options: PipelineGraph.Options, frameLength: Int, hop: Int) {
        ringCapacity = options.ringCapacity
        readFrames = options.readFrames
        self.frameLength = frameLength
        self.hop = hop
        let fitting = frameLength >= Self.jobSampleLimit ? 1 : (Self.jobSampleLimit - frameLength) / hop + 1
        framesPerJob = Swift.max(1, Swift.min(options.framesPerJob, fitting))
        jobsInFlight = 9 * options.jobs + 6
    }

    /// Frames the framer filters at a time (see `SourceStage.framerBlockFrames`).
    func cutFrames(channelCount: Int, ringCapacity: Int) -> Int {
        Swift.max(1, Swift.min(readFrames, ringCapacity / channelCount, SourceStage.framerBlockFrames))
    }
}
