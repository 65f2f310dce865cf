/// One channel's filtered samples for a job: written by the framer, then measured by a
/// worker, then returned to its pool. One owner at a time, handed on through the queues.
final class SampleBlock: @unchecked Sendable {
    // @unchecked: the framer writes it, gives it up with the job, and the worker reads it
    // after taking the job from a queue (which orders the two); nobody else touches it.
    let samples: UnsafeMutableBufferPointer<Double>
    /// Samples before the first frame: the hop that, with them, holds the frame before it,
    /// for features that compare with it (spectral flux). 0 at an input's start.
    var leadingSamples = 0

    init(capacity: Int) {
        samples = .allocate(capacity: capacity)
    }

    deinit { samples.deallocate() }
}

extension Pool {
    /// Sample blocks of one size (half a megabyte each, which malloc would map and unmap).
    static func sampleBlocks(capacity: Int, limit: Int) -> Pool<SampleBlock> where Item == SampleBlock {
        Pool(
            limit: limit, make: { SampleBlock(capacity: capacity) },
            reset: { block in
                precondition(block.samples.count == capacity, "a block from another pool")
            })
    }
}
