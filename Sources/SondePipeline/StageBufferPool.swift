import Synchronization

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
