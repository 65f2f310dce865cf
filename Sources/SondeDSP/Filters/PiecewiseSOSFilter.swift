/// A cascade of second-order sections run over a channel cut into pieces of a fixed length,
/// the pieces filtered independently (in parallel) and joined exactly by superposition.
///
/// Why: a filter's state carries from sample to sample, so `SOSFilter` is serial over a
/// whole channel. A linear filter's output over a piece is the piece filtered from a zero
/// state plus the zero-input response of the state the piece really starts in, and those
/// start states follow from a pass over the pieces only:
///
///     s[0] = 0,   s[b+1] = Φᴸ·s[b] + z[b]
///
/// with `z[b]` the state piece `b` leaves a zero-started cascade in and `Φᴸ` the cascade's
/// state transition over a piece (`SectionStateTransition`). So a run is three steps:
///
/// 1. `zeroStateFinalState(of:)` on every piece except the last, in parallel;
/// 2. `startStates(zeroStateFinalStates:)`, sequential, `2S × 2S` operations a piece;
/// 3. `filter(_:from:into:)` on every piece from its start state, in parallel.
///
/// Step 3 re-runs the piece from `s[b]` rather than adding `C·Φⁿ·s[b]` to the zero-state
/// output: both cost one pass of the cascade over the piece (the zero-input recurrence is
/// the same latency-bound biquad work), re-running rounds exactly as the sequential filter
/// does given the state, and the zero-input part cannot be cut short within the contract's
/// floor. That floor (docs/features.md, "Reference checks") is relative to the frame's own
/// scale, and a frame of silence after a loud piece holds nothing but that decaying
/// zero-input part, so any cut-off by magnitude is its whole value there; and for the
/// filters whose pieces need the correction most (slow poles under a large offset) it
/// decays over more than a piece anyway: `ρ = 1 − 4.7e-4` for `highpass:10:4` at 51.2 kHz
/// falls by 1e-12 only after 59,000 samples, `dc`'s `ρ = 1 − 6.1e-5` after 450,000.
///
/// The result is the sequential filter's within rounding (the start states are sums in a
/// different order), not bit for bit; but it depends only on the samples and the piece
/// length, never on which thread runs which piece or in what order, so a fixed `pieceLength`
/// gives the same doubles for any number of workers.
public struct PiecewiseSOSFilter: Sendable {
    /// The cascade (every stage of a chain, concatenated).
    public let sections: SecondOrderSections
    /// `L`, the samples of every piece but possibly the last (which may be shorter).
    public let pieceLength: Int
    /// `Φᴸ`.
    public let pieceTransition: SectionStateTransition

    /// - Parameters:
    ///   - sections: the cascade.
    ///   - pieceLength: `L` in samples, at least 1; fixed by the settings, never by the
    ///     number of workers, so the output does not depend on them.
    public init(_ sections: SecondOrderSections, pieceLength: Int) {
        precondition(pieceLength >= 1, "PiecewiseSOSFilter: piece length \(pieceLength); expected at least 1")
        self.sections = sections
        self.pieceLength = pieceLength
        pieceTransition = SectionStateTransition(sections, steps: pieceLength)
    }

    /// The stages of a chain (`FilterChain`'s designs, applied first to last) as one cascade.
    /// - Precondition: at least one stage (without stages there is nothing to filter).
    public init(stages: [SecondOrderSections], pieceLength: Int) {
        precondition(!stages.isEmpty, "PiecewiseSOSFilter: no stages")
        self.init(SecondOrderSections(uncheckedCoefficients: stages.flatMap(\.coefficients)), pieceLength: pieceLength)
    }

    /// The state of the cascade at the start of every piece: all zeros, `2 × sections` values.
    public var zeroState: [Double] { [Double](repeating: 0, count: 2 * sections.sectionCount) }

    /// Step 1: the state a zero-started cascade is in after `piece` (`z[b]`). Independent of
    /// every other piece. Allocates one piece of scratch (the sections run one pass each
    /// over the block, so the intermediate outputs need somewhere to live).
    /// - Precondition: `piece.count == pieceLength` (the last, shorter piece needs none).
    public func zeroStateFinalState(of piece: UnsafeBufferPointer<Double>) -> [Double] {
        precondition(
            piece.count == pieceLength,
            "PiecewiseSOSFilter: a piece of \(piece.count) samples; expected \(pieceLength)")
        var filter = SOSFilter(sections)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: piece.count) { scratch in
            filter.process(piece, into: scratch)
        }
        return filter.currentState
    }

    /// Step 2 for one boundary: `s[b+1] = Φᴸ·s[b] + z[b]`.
    public func nextStartState(after start: [Double], zeroStateFinalState: [Double]) -> [Double] {
        pieceTransition.advance(start, adding: zeroStateFinalState)
    }

    /// Step 2: the start state of piece 0 (zero) and of each piece after one of the given
    /// zero-state final states, in order; `count + 1` states.
    public func startStates(zeroStateFinalStates: [[Double]]) -> [[Double]] {
        var states = [zeroState]
        states.reserveCapacity(zeroStateFinalStates.count + 1)
        for final in zeroStateFinalStates {
            states.append(nextStartState(after: states[states.count - 1], zeroStateFinalState: final))
        }
        return states
    }

    /// Step 3: `piece` filtered from `start`, into `output` (which may be the same memory).
    /// Allocates only the state.
    /// - Precondition: `output.count == piece.count`, at most `pieceLength`.
    public func filter(
        _ piece: UnsafeBufferPointer<Double>, from start: [Double], into output: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(
            piece.count <= pieceLength,
            "PiecewiseSOSFilter: a piece of \(piece.count) samples; expected at most \(pieceLength)")
        var filter = SOSFilter(sections, state: start)
        filter.process(piece, into: output)
    }

    /// The three steps in order on one thread, in place: the reference for any parallel
    /// schedule of them, which gives the same doubles.
    public func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        let count = samples.count
        guard count > 0 else { return }
        let pieces = (count + pieceLength - 1) / pieceLength
        let input = UnsafeBufferPointer(samples)
        var finals: [[Double]] = []
        finals.reserveCapacity(pieces - 1)
        for piece in 0..<(pieces - 1) {
            let start = piece * pieceLength
            finals.append(zeroStateFinalState(of: UnsafeBufferPointer(rebasing: input[start..<(start + pieceLength)])))
        }
        let starts = startStates(zeroStateFinalStates: finals)
        for piece in 0..<pieces {
            let range = (piece * pieceLength)..<min((piece + 1) * pieceLength, count)
            filter(
                UnsafeBufferPointer(rebasing: input[range]), from: starts[piece],
                into: UnsafeMutableBufferPointer(rebasing: samples[range]))
        }
    }

    /// `process(_:)` on an array; a convenience.
    public func process(_ samples: inout [Double]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
