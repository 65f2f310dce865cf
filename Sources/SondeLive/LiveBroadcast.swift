import Hummingbird
import Synchronization

/// Hands each page update to every connected client through its own small buffer, and
/// never waits: when a client's buffer is full (a stalled or slow reader), its oldest
/// update is dropped and counted, so no client can hold back the measurement.
final class LiveBroadcast: Sendable {
    /// Updates a client may have queued before the oldest is dropped.
    let clientBuffer: Int
    private let state = Mutex(State())
    private let dropped = Atomic<Int>(0)

    private struct State {
        var clients: [Int: AsyncStream<ByteBuffer>.Continuation] = [:]
        var nextID = 0
        /// The last update with figures and the last of values only (when newer), given to
        /// a client as it connects so its page fills at once.
        var lastFigures: ByteBuffer?
        var lastValues: ByteBuffer?
        var finished = false
    }

    /// - Parameter clientBuffer: updates queued per client, >= 1.
    init(clientBuffer: Int = 8) {
        self.clientBuffer = max(1, clientBuffer)
    }

    /// Updates dropped for clients that did not keep up, since the start.
    var droppedUpdates: Int { dropped.load(ordering: .relaxed) }

    /// Clients connected now.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// A new client's updates, starting with the latest; ends when the stream does.
    func subscribe() -> AsyncStream<ByteBuffer> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(clientBuffer))
        let (id, latest, finished) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            if !state.finished { state.clients[id] = continuation }
            return (id, [state.lastFigures, state.lastValues].compactMap { $0 }, state.finished)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.clients.removeValue(forKey: id) }
        }
        for update in latest { continuation.yield(update) }
        if finished { continuation.finish() }
        return stream
    }

    /// Queues `update` for every client; drops (and counts) where a buffer is full.
    /// - Parameter hasFigures: whether the update carries the figures (else values only).
    func send(_ update: ByteBuffer, hasFigures: Bool = false) {
        let clients = state.withLock { state in
            if hasFigures {
                state.lastFigures = update
                state.lastValues = nil
            } else {
                state.lastValues = update
            }
            return Array(state.clients.values)
        }
        // Outside the lock: yield may run a client's termination handler, which takes it.
        for client in clients {
            if case .dropped = client.yield(update) { dropped.add(1, ordering: .relaxed) }
        }
    }

    /// Ends every client's updates (the stream is over); later clients get the last one.
    func finish() {
        let clients = state.withLock { state in
            state.finished = true
            defer { state.clients.removeAll() }
            return Array(state.clients.values)
        }
        for client in clients { client.finish() }
    }
}
