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
                frameLength: sizes.frameLength, hop: sizes.hop, maximumBlock: cutFrames, framesHeld: sizes.framesPerJob),
            channelCount: channelCount)
    }

    deinit {
        readBlock.deallocate()
        cutBlock.deallocate()
    }
}
