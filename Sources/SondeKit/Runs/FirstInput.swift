import Foundation
import SondePipeline

/// An input opened before the run, handed to the graph once.
final class FirstInput: @unchecked Sendable {
    // @unchecked: `input` is taken under `lock`, once, by the graph's opening thread.
    private let lock = NSLock()
    private var input: PipelineGraph.Input?

    init(_ input: PipelineGraph.Input?) { self.input = input }

    func take() -> PipelineGraph.Input? {
        lock.lock()
        defer { lock.unlock() }
        defer { input = nil }
        return input
    }
}
