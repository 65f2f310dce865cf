import Dispatch

/// Runs blocking system calls (file reads, writes to a pipe) on a dedicated thread, so they
/// never occupy one of the cooperative pool's threads, which are as many as the cores.
struct BlockingIO: Sendable {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
