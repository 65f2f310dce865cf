import SondeDSP
import Synchronization

/// The start state of every piece of a filtered input cut into segments, per channel, as
/// the pieces' zero-state passes (`PieceZeroStates`) deliver their final states in any
/// order: `s[0] = 0`, `s[b+1] = Φᴸ·s[b] + z[b]`, advanced as far as the states that have
/// arrived reach. A segment's framer awaits the states of the pieces it filters.
///
/// Why a lock and continuations rather than an actor: a state arrives once a piece (65,536
/// frames) and is awaited once a piece per segment, so this is never on a per-sample path,
/// and the framer must not hop executors to read it.
final class PieceStates: Sendable {
    /// What a framer waiting for a piece's start state gets.
    enum Outcome: Sendable {
        /// One state per channel.
        case states([[Double]])
        /// The zero-state pass of an earlier piece failed (a read error).
        case failed(any Error)
        /// The input was cancelled or the run stopped.
        case cancelled
    }

    private struct State {
        /// `s[b]` per piece, per channel, for pieces `0 ..< starts.count`.
        var starts: [[[Double]]]
        /// `z[b]` of pieces whose predecessors' have not all arrived yet.
        var finals: [Int: [[Double]]] = [:]
        var waiters: [(piece: Int, continuation: CheckedContinuation<Outcome, Never>)] = []
        var end: Outcome?
    }

    let design: PiecewiseSOSFilter
    let channelCount: Int
    private let state: Mutex<State>

    init(design: PiecewiseSOSFilter, channelCount: Int) {
        self.design = design
        self.channelCount = channelCount
        state = Mutex(State(starts: [[[Double]](repeating: design.zeroState, count: channelCount)]))
    }

    /// Takes piece `piece`'s zero-state final states (one per channel), advances the start
    /// states as far as they now reach, and wakes the framers waiting for them.
    func deposit(piece: Int, finals: [[Double]]) {
        var resumed: [(CheckedContinuation<Outcome, Never>, Outcome)] = []
        state.withLock { state in
            guard state.end == nil else { return }
            state.finals[piece] = finals
            while let final = state.finals.removeValue(forKey: state.starts.count - 1) {
                let last = state.starts[state.starts.count - 1]
                state.starts.append(
                    (0..<channelCount).map { design.nextStartState(after: last[$0], zeroStateFinalState: final[$0]) })
            }
            state.waiters.removeAll { waiter in
                guard waiter.piece < state.starts.count else { return false }
                resumed.append((waiter.continuation, .states(state.starts[waiter.piece])))
                return true
            }
        }
        for (continuation, outcome) in resumed { continuation.resume(returning: outcome) }
    }

    /// The start states of `piece`, once known.
    func startStates(piece: Int) async -> Outcome {
        await withCheckedContinuation { continuation in
            let now: Outcome? = state.withLock { state in
                if piece < state.starts.count { return .states(state.starts[piece]) }
                if let end = state.end { return end }
                state.waiters.append((piece, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Ends the states: pieces not known yet will never be (`.failed` or `.cancelled`).
    func end(_ outcome: Outcome) {
        let waiters = state.withLock { state in
            if state.end == nil { state.end = outcome }
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: outcome) }
    }
}
