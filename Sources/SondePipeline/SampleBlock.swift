import Synchronization

/// One channel's filtered samples for a job: written by the framer, then measured by a
/// worker, then returned to its pool. One owner at a time, handed on through the queues.
final class SampleBlock: @unchecked Sendable {
    // @unchecked: the framer writes it, gives it up with the job, and the worker reads it
    // after taking the job from a queue (which orders the two); nobody else touches it.
    let samples: UnsafeMutableBufferPointer<Double>

    init(capacity: Int) {
        samples = .allocate(capacity: capacity)
    }

    deinit { samples.deallocate() }
}

/// Sample blocks of one size, reused: a running pipeline takes its blocks from here
/// instead of the allocator (half a megabyte each, which malloc would map and unmap).
final class SampleBlockPool: Sendable {
    let blockCapacity: Int
    private let blocks = Mutex<[SampleBlock]>([])
    /// Blocks kept at most; the queues bound how many are in flight.
    private let limit: Int

    init(blockCapacity: Int, limit: Int) {
        self.blockCapacity = blockCapacity
        self.limit = limit
    }

    func take() -> SampleBlock {
        blocks.withLock { $0.popLast() } ?? SampleBlock(capacity: blockCapacity)
    }

    func recycle(_ block: SampleBlock) {
        precondition(block.samples.count == blockCapacity, "a block from another pool")
        blocks.withLock { blocks in
            if blocks.count < limit { blocks.append(block) }
        }
    }
}
