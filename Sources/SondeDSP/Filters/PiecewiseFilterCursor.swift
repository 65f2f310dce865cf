/// A `PiecewiseSOSFilter` run along one channel as its samples arrive, in blocks of any size:
/// every sample is its piece re-run from the piece's start state `s[b]`, so the output is
/// `PiecewiseSOSFilter.process(_:)`'s doubles however the channel is cut into blocks,
/// segments or jobs.
///
/// Why a cursor: the pipeline filters a channel block by block (a ring's worth at a time),
/// and a segment of a long file starts at some piece of it. The cursor knows each sample's
/// frame index in the input (pieces are counted from frame 0) and swaps in `s[b]` at every
/// multiple of `L`. The start states come from one of two places:
///
/// - `computesStartStates`: from the channel itself, for a cursor that sees every sample
///   from frame 0 (a whole input). Each piece runs twice in one pass, in the two lanes of a
///   `SIMD2`: from `s[b]` (the output) and from zero (its final state is `z[b]`), so
///   `s[b+1] = Φᴸ·s[b] + z[b]` is known as the piece ends, with no look-ahead.
/// - given: a segment that starts at a later piece loads `s[b]` before each piece
///   (`load(startState:)`), from the states the input's pieces' zero-state passes gave.
///
/// Both give bit for bit the same doubles: the `SIMD2` lanes do exactly the scalar
/// operations, and a filter's state does not depend on how its samples were chunked.
public struct PiecewiseFilterCursor: Sendable {
    /// The cascade, `L` and `Φᴸ`.
    public let design: PiecewiseSOSFilter
    /// The frame index in the input of the next sample.
    public private(set) var frame: Int
    /// Runs the current piece from its start state.
    private var running: SOSFilter
    /// The current piece from zero (`computesStartStates` only): its final state is `z[b]`.
    private var zeroStarted: SOSFilter
    /// `s[b]` of the current piece.
    private var start: [Double]
    private let computesStartStates: Bool
    /// The start state of the piece at `frame` is loaded (always, between boundaries).
    private var loaded: Bool
    /// The zero-started lane's outputs, which nothing reads but its next section: 4,096
    /// samples (32 KiB) at a time stay in L1/L2; chunking changes no value.
    private var scratch: [Double]

    static let scratchSamples = 4096

    /// - Parameters:
    ///   - design: the cascade and piece length.
    ///   - startFrame: the frame index of the first sample, a multiple of `pieceLength`.
    ///   - computesStartStates: true for a cursor that starts at frame 0 and derives every
    ///     start state itself; false to have them loaded at each piece.
    public init(_ design: PiecewiseSOSFilter, startFrame: Int = 0, computesStartStates: Bool = true) {
        precondition(
            startFrame >= 0 && startFrame % design.pieceLength == 0,
            "PiecewiseFilterCursor: start frame \(startFrame) is not at a piece boundary of \(design.pieceLength)")
        precondition(
            !computesStartStates || startFrame == 0,
            "PiecewiseFilterCursor: a cursor that computes its start states starts at frame 0, not \(startFrame)")
        self.design = design
        frame = startFrame
        running = SOSFilter(design.sections)
        zeroStarted = SOSFilter(design.sections)
        start = design.zeroState
        self.computesStartStates = computesStartStates
        loaded = computesStartStates
        scratch = computesStartStates ? [Double](repeating: 0, count: Self.scratchSamples) : []
    }

    /// The index of the piece the next sample belongs to.
    public var piece: Int { frame / design.pieceLength }

    /// Samples left before the next piece starts (1 ... `pieceLength`).
    public var samplesToPieceEnd: Int { design.pieceLength - frame % design.pieceLength }

    /// Whether the next sample starts a piece whose start state must be loaded first.
    public var needsStartState: Bool { !loaded }

    /// Gives the start state `s[piece]` of the piece the next sample starts.
    /// - Precondition: `needsStartState`.
    public mutating func load(startState: [Double]) {
        precondition(!loaded, "PiecewiseFilterCursor.load: frame \(frame) is inside a piece")
        precondition(
            startState.count == start.count,
            "PiecewiseFilterCursor.load: \(startState.count) state values; expected \(start.count)")
        running.state = startState
        start = startState
        loaded = true
    }

    /// Filters `samples` in place, continuing from the previous call.
    /// - Precondition: for a cursor given its start states, `samples` do not cross the end of
    ///   the current piece unless the cursor computes them (split blocks at
    ///   `samplesToPieceEnd`), and `needsStartState` is false.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        var done = 0
        while done < samples.count {
            precondition(loaded, "PiecewiseFilterCursor.process: piece \(piece) has no start state")
            let count = Swift.min(samples.count - done, samplesToPieceEnd)
            let part = UnsafeMutableBufferPointer(rebasing: samples[done..<(done + count)])
            if computesStartStates {
                runBothLanes(part)
            } else {
                running.process(part)
            }
            done += count
            frame += count
            if frame % design.pieceLength == 0 { endPiece() }
        }
    }

    /// Filters two adjacent channels of an interleaved block into two outputs, each cursor
    /// continuing from its previous call: the doubles `process(_:)` gives each channel, with
    /// the two channels in the lanes of one `SIMD2` pass (a cursor that derives its start
    /// states runs them beside the pieces from zero in the four lanes of a `SIMD4` pass),
    /// reading the block directly.
    /// - Parameters:
    ///   - interleaved: the first channel's first sample; the second channel's follows it.
    ///   - stride: samples from one frame to the next (the block's channel count, at least 2).
    /// - Precondition: cursors of the same design at the same frame, of the same kind; the
    ///   preconditions of `process(_:)`.
    public static func process(
        _ first: inout PiecewiseFilterCursor, _ second: inout PiecewiseFilterCursor, interleaved: UnsafePointer<Double>,
        stride: Int, into firstOutput: UnsafeMutableBufferPointer<Double>,
        _ secondOutput: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(
            first.frame == second.frame && first.computesStartStates == second.computesStartStates
                && first.design.pieceLength == second.design.pieceLength && firstOutput.count == secondOutput.count,
            "PiecewiseFilterCursor.process: channels at different frames or of different kinds")
        // Moved out and back so each scratch stays uniquely referenced (no copy).
        var firstScratch = first.scratch, secondScratch = second.scratch
        first.scratch = []
        second.scratch = []
        defer {
            first.scratch = firstScratch
            second.scratch = secondScratch
        }
        var done = 0
        while done < firstOutput.count {
            precondition(
                first.loaded && second.loaded, "PiecewiseFilterCursor.process: piece \(first.piece) has no start state")
            let count = Swift.min(firstOutput.count - done, first.samplesToPieceEnd)
            let input = interleaved + done * stride
            if first.computesStartStates, let firstBase = firstOutput.baseAddress,
                let secondBase = secondOutput.baseAddress
            {
                // Both channels from `s[b]` and from zero in the four lanes of one pass.
                firstScratch.withUnsafeMutableBufferPointer { a in
                    secondScratch.withUnsafeMutableBufferPointer { b in
                        guard let a = a.baseAddress, let b = b.baseAddress else { return }
                        var lanes = [first.running, second.running, first.zeroStarted, second.zeroStarted]
                        var chunk = 0
                        while chunk < count {
                            let n = Swift.min(count - chunk, Self.scratchSamples)
                            let left = SOSFilter.StridedSamples(input + chunk * stride, stride: stride)
                            let right = SOSFilter.StridedSamples(input + chunk * stride + 1, stride: stride)
                            SOSFilter.process(
                                lanes: &lanes, inputs: [left, right, left, right],
                                outputs: [firstBase + done + chunk, secondBase + done + chunk, a, b], count: n)
                            chunk += n
                        }
                        first.running = lanes[0]
                        second.running = lanes[1]
                        first.zeroStarted = lanes[2]
                        second.zeroStarted = lanes[3]
                    }
                }
            } else {
                SOSFilter.process(
                    &first.running, &second.running, interleaved: input, stride: stride,
                    into: UnsafeMutableBufferPointer(rebasing: firstOutput[done..<(done + count)]),
                    UnsafeMutableBufferPointer(rebasing: secondOutput[done..<(done + count)]))
            }
            done += count
            first.frame += count
            second.frame += count
            if first.frame % first.design.pieceLength == 0 {
                first.endPiece()
                second.endPiece()
            }
        }
    }

    /// The piece's samples from `s[b]` in place and from zero into the scratch, in chunks.
    private mutating func runBothLanes(_ samples: UnsafeMutableBufferPointer<Double>) {
        scratch.withUnsafeMutableBufferPointer { scratch in
            var done = 0
            while done < samples.count {
                let count = Swift.min(samples.count - done, scratch.count)
                let part = UnsafeMutableBufferPointer(rebasing: samples[done..<(done + count)])
                SOSFilter.process(
                    &running, &zeroStarted, repeating: UnsafeBufferPointer(part), into: part,
                    UnsafeMutableBufferPointer(rebasing: scratch[0..<count]))
                done += count
            }
        }
    }

    /// At a piece boundary: the next piece's start state, derived or to be loaded.
    private mutating func endPiece() {
        guard computesStartStates else {
            loaded = false
            return
        }
        let next = design.nextStartState(after: start, zeroStateFinalState: zeroStarted.currentState)
        running.state = next
        zeroStarted.reset()
        start = next
    }
}
