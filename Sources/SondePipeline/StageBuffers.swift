import SondeCore
import Synchronization

/// The buffers one input's stage works in: its ring, the reader's and framer's blocks,
/// and its jobs' pools. The graph hands them from one input to the next, so a dataset of
/// short clips allocates and faults in these megabytes once, not once per file (before:
/// 2.4 MB per file, 4.8 GB and mostly system time for 2,000 clips).
final class StageBuffers: @unchecked Sendable {
    // @unchecked: the blocks belong to one input's reader and framer at a time; the pool
    // hands them on only after that input has ended.
    let channelCount: Int
    let ring: RingBuffer
    /// Where a read goes when the ring's free space wraps before a whole read fits.
    let readBlock: UnsafeMutableBufferPointer<Double>
    /// Where frames that straddle the ring's wrap are copied for the framer.
    let cutBlock: UnsafeMutableBufferPointer<Double>
    let jobs: JobBuffers

    init(channelCount: Int, sizes: StageSizes) {
        self.channelCount = channelCount
        ring = RingBuffer(capacity: Swift.max(sizes.ringCapacity, channelCount))
        let cutFrames = sizes.cutFrames(channelCount: channelCount, ringCapacity: ring.capacity)
        readBlock = .allocate(capacity: sizes.readFrames * channelCount)
        cutBlock = .allocate(capacity: cutFrames * channelCount)
        jobs = JobBuffers(
            jobsInFlight: sizes.jobsInFlight * channelCount,
            blockCapacity: ChannelProcessor.blockCapacity(
                frameLength: sizes.frameLength, hop: sizes.hop, maximumBlock: cutFrames, framesHeld: sizes.framesPerJob)
        )
    }

    deinit {
        readBlock.deallocate()
        cutBlock.deallocate()
    }
}

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

/// Stage buffers not in use, by channel count.
final class StageBufferPool: Sendable {
    private let sizes: StageSizes
    private let idle = Mutex<[Int: [StageBuffers]]>([:])
    /// Kept at most, all channel counts together: a run holds at most this many stages at
    /// once, and a dataset of many channel counts must not keep a set for each.
    private let limit: Int

    init(sizes: StageSizes, limit: Int) {
        self.sizes = sizes
        self.limit = limit
    }

    func take(channelCount: Int) -> StageBuffers {
        idle.withLock { $0[channelCount]?.popLast() } ?? StageBuffers(channelCount: channelCount, sizes: sizes)
    }

    /// Keeps `buffers` for the next input with as many channels. Only once nothing of the
    /// input that used them (reader, framer, workers, writer) touches them any more.
    func recycle(_ buffers: StageBuffers) {
        buffers.ring.reset()
        // Freed outside the lock.
        let evicted = idle.withLock { idle -> StageBuffers? in
            var evicted: StageBuffers?
            if idle.values.reduce(0, { $0 + $1.count }) >= limit {
                // Another channel count's set goes first: the one just used is likelier to come again.
                let key =
                    idle.first { $0.key != buffers.channelCount && !$0.value.isEmpty }?.key ?? buffers.channelCount
                evicted = idle[key]?.popLast()
            }
            idle[buffers.channelCount, default: []].append(buffers)
            return evicted
        }
        _ = evicted
    }

    /// Buffers kept for later inputs, all channel counts together.
    var idleCount: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
