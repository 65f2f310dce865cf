import Testing

@testable import SondePipeline

/// The pool that hands stage buffers from one input to the next keeps a bounded number,
/// whatever the mix of channel counts in a dataset.
@Suite struct StageBufferPoolTests {
    private let sizes = StageSizes(
        options: PipelineGraph.Options(jobs: 2, ringCapacity: 1024, readFrames: 256), frameLength: 64, hop: 32)

    @Test func manyChannelCountsKeepAtMostTheLimit() {
        let pool = StageBufferPool(sizes: sizes, limit: 4)
        for channels in 1...12 {
            let buffers = pool.take(channelCount: channels)
            #expect(buffers.channelCount == channels)
            pool.recycle(buffers)
            #expect(pool.idleCount <= 4)
        }
        #expect(pool.idleCount == 4)
    }

    @Test func buffersComeBackForTheSameChannelCount() {
        let pool = StageBufferPool(sizes: sizes, limit: 4)
        let first = pool.take(channelCount: 2)
        first.ring.close()
        pool.recycle(first)
        let again = pool.take(channelCount: 2)
        #expect(again === first)
        // Reset for its next input: open and empty.
        #expect(!again.ring.isClosed && again.ring.readableCount == 0)
        #expect(pool.take(channelCount: 3) !== first)
    }
}
