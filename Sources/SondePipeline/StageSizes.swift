/// The sizes every stage of a run shares.
struct StageSizes: Sendable {
    var ringCapacity: Int
    var readFrames: Int
    var frameLength: Int
    var hop: Int
    /// Frames per job, fewer for long windows (see `init`).
    var framesPerJob: Int
    /// Jobs one channel can have in flight: the work queue (at most 4J), the tickets (4J + 4),
    /// one being measured per worker, and one each at the framer and the exporter.
    var jobsInFlight: Int
    /// Samples (all channels) a segment of a cut input reads, about (`InputSegments`).
    var segmentSamples: Int

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
        segmentSamples = options.segmentSamples
    }

    /// Jobs the work queue holds: four per worker, fewer when jobs are large, for each holds
    /// a block of samples (`blockBytes`) until it is measured. With 65536-sample windows a
    /// job's block is 0.9 MB, and 4 x 64 of them took a run to 205 MB; at least one per
    /// worker is kept, so none waits for the framer.
    func workQueueCapacity(jobs: Int) -> Int {
        Swift.max(jobs, Swift.min(4 * jobs, Self.workQueueBudget / blockBytes(channelCount: 1)))
    }

    /// Memory the work queue's blocks may hold (`workQueueCapacity`).
    static let workQueueBudget = 48 << 20

    /// Inputs read at once (each on a lane of its own): one per job, at most what fits
    /// `inputBudget` (a stage of two channels, about 5 MB at N = 1024), and never fewer than
    /// two per core, which keep the cores busy while others wait on their files. At 64 jobs
    /// 64 clips at once took a run over 2,000 clips to 241 MiB.
    func inputsInFlight(jobs: Int, cores: Int) -> Int {
        Swift.max(1, Swift.min(jobs, Swift.max(2 * cores, Self.inputBudget / stageBytes(channelCount: 2))))
    }

    /// Memory the inputs read at once may hold (`inputsInFlight`).
    static let inputBudget = 64 << 20

    /// Memory one channel's block of filtered samples takes (`ChannelProcessor.blockCapacity`).
    func blockBytes(channelCount: Int) -> Int {
        let cutFrames = cutFrames(channelCount: channelCount, ringCapacity: ringCapacity)
        return 8
            * ChannelProcessor.blockCapacity(
                frameLength: frameLength, hop: hop, maximumBlock: cutFrames, framesHeld: framesPerJob)
    }

    /// Memory a stage of `channelCount` channels touches, about: its ring, each channel's
    /// block of filtered samples, the reader's chunk (1 MiB) and a megabyte of records.
    func stageBytes(channelCount: Int) -> Int {
        8 * ringCapacity + channelCount * blockBytes(channelCount: channelCount) + (2 << 20)
    }

    /// Frames the framer filters at a time (see `SourceStage.framerBlockFrames`).
    func cutFrames(channelCount: Int, ringCapacity: Int) -> Int {
        Swift.max(1, Swift.min(readFrames, ringCapacity / channelCount, SourceStage.framerBlockFrames))
    }
}
