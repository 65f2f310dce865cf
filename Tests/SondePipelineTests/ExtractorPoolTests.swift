import SondeDSP
import Synchronization
import Testing

@testable import SondePipeline

/// At most `limit` workers measure at once, each in a slot with its extractor.
@Suite struct ExtractorPoolTests {
    @Test func longWindowsAtManyJobsKeepFewerExtractorsThanJobs() {
        // 65,536-sample windows: 1.8 MB an extractor, 18 fit the 32 MiB; never fewer than the cores.
        #expect(ExtractorPool(jobs: 64, frameLength: 65_536, cores: 2, keepsSpectra: false).limit == 18)
        #expect(ExtractorPool(jobs: 64, frameLength: 65_536, cores: 32, keepsSpectra: false).limit == 32)
        #expect(ExtractorPool(jobs: 64, frameLength: 1024, cores: 2, keepsSpectra: false).limit == 64)
        #expect(ExtractorPool(jobs: 3, frameLength: 65_536, cores: 2, keepsSpectra: false).limit == 3)
    }

    @Test func aWorkerBeyondTheLimitWaitsForASlotReleased() async throws {
        let pool = ExtractorPool(jobs: 2, frameLength: 1024, cores: 1, keepsSpectra: false)
        #expect(pool.limit == 2)
        let first = await pool.acquire()
        let second = await pool.acquire()
        #expect(first !== second)
        let third = Mutex<ObjectIdentifier?>(nil)
        let waiting = Task {
            let slot = await pool.acquire()
            third.withLock { $0 = ObjectIdentifier(slot) }
            pool.release(slot)
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(third.withLock { $0 } == nil)
        pool.release(second)
        await waiting.value
        #expect(third.withLock { $0 } == ObjectIdentifier(second))
        pool.release(first)
    }

    /// A slot keeps its extractor for the same configuration, and makes one for another.
    @Test func aSlotKeepsItsExtractorForOneConfiguration() async throws {
        let pool = ExtractorPool(jobs: 1, frameLength: 1024, cores: 1, keepsSpectra: false)
        let slow = try FeatureConfiguration(frameLength: 1024, sampleRate: 1000)
        let fast = try FeatureConfiguration(frameLength: 1024, sampleRate: 2000)
        let slot = await pool.acquire()
        let first = slot.extractor(for: slow)
        #expect(slot.extractor(for: slow) === first)
        let other = slot.extractor(for: fast)
        #expect(other !== first && other.configuration == fast)
        pool.release(slot)
    }
}
