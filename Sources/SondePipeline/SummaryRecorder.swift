import Synchronization

/// Per-input counts for `Summary`, written by the exporter.
final class SummaryRecorder: Sendable {
    private let state: Mutex<(samples: [Int], frames: [Int], failed: Int)>

    init(count: Int) {
        state = Mutex((Array(repeating: 0, count: count), Array(repeating: 0, count: count), 0))
    }

    func finished(_ index: Int, _ summary: PipelineGraph.InputSummary) {
        state.withLock {
            $0.samples[index] = summary.samplesPerChannel
            $0.frames[index] = summary.frames
        }
    }

    func failed(_ index: Int) { state.withLock { $0.failed += 1 } }

    var totals: (samples: [Int], frames: [Int], failed: Int) { state.withLock { $0 } }
}
