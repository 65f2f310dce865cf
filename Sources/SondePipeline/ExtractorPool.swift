import Foundation
import SondeDSP
import Synchronization

/// The places where a run's workers measure: at most `limit` workers measure at once, each
/// with the feature extractor of the `Slot` it holds for one job, so `--jobs` beyond the
/// cores does not multiply the extractors' buffers (1.8 MB for 65,536-sample windows; one
/// per worker took 64 jobs to 228-249 MiB). A worker takes a slot before its job, so one
/// that waits holds no samples. An extractor keeps nothing from one job to the next (a job
/// primes spectral flux with the frame before its first), so any job may use any slot.
final class ExtractorPool: Sendable {
    /// One worker's place to measure, and its extractor for the last configuration it met.
    final class Slot: @unchecked Sendable {
        // @unchecked: one worker holds a slot at a time (`acquire` to `release`).
        private var extractor: FeatureExtractor?
        private let keepsSpectra: Bool

        init(keepsSpectra: Bool) {
            self.keepsSpectra = keepsSpectra
        }

        /// The slot's extractor for `configuration`, made (in place of another
        /// configuration's) the first time.
        func extractor(for configuration: FeatureConfiguration) -> FeatureExtractor {
            if let extractor, extractor.configuration == configuration { return extractor }
            let made = FeatureExtractor(configuration: configuration, keepsSpectrum: keepsSpectra)
            extractor = made
            return made
        }
    }

    private struct State {
        var free: [Slot]
        var waiting: [UnsafeContinuation<Slot, Never>] = []
    }

    private let state: Mutex<State>
    /// Workers measuring at once at most, and extractors alive.
    let limit: Int

    /// Memory the extractors may hold together before fewer workers than jobs measure at once.
    static let memoryBudget = 32 << 20

    /// - Parameters:
    ///   - jobs: the run's workers.
    ///   - frameLength: the run's window (its extractors' size).
    ///   - cores: processors the run may use: at least this many measure at once, as
    ///     more jobs than cores measuring at the same time only share them.
    ///   - keepsSpectra: extractors keep every frame's `P[k]` (a spectrum tap).
    init(jobs: Int, frameLength: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount, keepsSpectra: Bool) {
        let bytes = FeatureExtractor.estimatedBytes(frameLength: frameLength)
        let limit = Swift.max(1, Swift.min(jobs, Swift.max(cores, Self.memoryBudget / Swift.max(1, bytes))))
        self.limit = limit
        state = Mutex(State(free: (0..<limit).map { _ in Slot(keepsSpectra: keepsSpectra) }))
    }

    /// A free slot, or the next one released.
    func acquire() async -> Slot {
        await withUnsafeContinuation { continuation in
            let slot: Slot? = state.withLock { state in
                if let slot = state.free.popLast() { return slot }
                state.waiting.append(continuation)
                return nil
            }
            if let slot { continuation.resume(returning: slot) }
        }
    }

    /// Gives a slot back after its job: to a waiting worker, or to the free ones.
    func release(_ slot: Slot) {
        let waiter = state.withLock { state -> UnsafeContinuation<Slot, Never>? in
            if state.waiting.isEmpty {
                state.free.append(slot)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: slot)
    }
}
