import SondeCore
import SondeDSP

extension PipelineGraph {
    /// The zero-state pass of a cut filtered input (issue 49): every piece but the last,
    /// opened again at its start, read and filtered from zero state per channel on the
    /// workers, at most `jobs` tasks at once and in order, each task a few consecutive pieces
    /// whose channels share the four lanes of one pass (`piecesPerTask`), and each piece's
    /// final states handed to `states`, which gives the segments their start states.
    /// Independent pieces, so neither reading nor filtering is serial; what is,
    /// `s[b+1] = Φᴸ·s[b] + z[b]`, is a `2S × 2S` product a piece.
    func computePieceStates(
        of first: SourceStage, reopening: SourceReopening, states: PieceStates, followers: SegmentFollowers,
        failure: GraphFailure
    ) async {
        let design = states.design
        // The last piece's final state starts no piece.
        let pieces = (reopening.frameCount - 1) / design.pieceLength
        let channelCount = states.channelCount
        let perTask = Self.piecesPerTask(channelCount: channelCount)
        let name = first.name
        var failed = false
        await withTaskGroup(of: (any Error)?.self) { group in
            var next = 0
            func ended() -> Bool { failed || stopSignal.hasFired || followers.isCancelled || failure.error != nil }
            func add() {
                guard next < pieces, !ended() else { return }
                let range = next..<Swift.min(pieces, next + perTask)
                next = range.upperBound
                group.addTask {
                    do {
                        // Not timed as `.filter`: that is the framer's, serial per input; this
                        // is the workers' CPU like measuring.
                        let finals = try Self.zeroStateFinals(
                            pieces: range, design: design, channelCount: channelCount, reopening: reopening,
                            name: name)
                        for (offset, piece) in range.enumerated() {
                            states.deposit(piece: piece, finals: finals[offset])
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            for _ in 0..<Swift.max(1, options.jobs) { add() }
            while let error = await group.next() {
                if let error {
                    failed = true
                    states.end(.failed(error))
                }
                add()
            }
        }
        // Every piece is in, or the pass stopped early (the run stopped or the input was
        // cancelled): framers waiting for a state that will never come end. After a failure
        // this changes nothing.
        states.end(.cancelled)
    }

    /// Consecutive pieces a zero-state task takes: as many as fill the four lanes of a pass
    /// with their channels (4 mono pieces, 2 of two channels, else 1).
    static func piecesPerTask(channelCount: Int) -> Int {
        Swift.max(1, 4 / Swift.max(1, channelCount))
    }

    /// The final state of each channel's filter run from zero over each of `pieces`, per
    /// piece: read in blocks of 4 Ki frames (a state does not depend on how its samples
    /// were chunked), the (piece, channel) sequences four at a time in the lanes of one pass
    /// (bit for bit each alone).
    /// - Throws: the source's error; `SondeError(.io)` when the file ends before a piece does.
    static func zeroStateFinals(
        pieces: Range<Int>, design: PiecewiseSOSFilter, channelCount: Int, reopening: SourceReopening, name: String
    ) throws -> [[[Double]]] {
        let length = design.pieceLength
        let sources = try pieces.map { try reopening.open($0 * length) }
        // 4 Ki frames keep a task to 256 KiB for mono (four pieces' blocks and the lanes'
        // outputs), 64 jobs' tasks to 16 MiB: a filtered mono run at --jobs 64 peaked at
        // 171 MB with 16 Ki frames, 143 MB with 4 Ki (release, 30 M samples).
        let blockFrames = Swift.min(length, 4_096)
        let blockSamples = blockFrames * channelCount
        var filters = [SOSFilter](repeating: SOSFilter(design.sections), count: pieces.count * channelCount)
        // Every piece's block, then the four lanes' outputs (which only the next section
        // reads): one allocation for the task, reused block after block.
        let memory = UnsafeMutableBufferPointer<Double>.allocate(
            capacity: pieces.count * blockSamples + 4 * blockFrames)
        defer { memory.deallocate() }
        guard let base = memory.baseAddress else { return [] }
        var done = 0
        while done < length {
            let frames = Swift.min(blockFrames, length - done)
            for (offset, piece) in pieces.enumerated() {
                try readExactly(
                    frames, channelCount: channelCount, from: sources[offset],
                    into: base + offset * blockSamples, firstFrame: piece * length + done, name: name)
            }
            filterLanes(
                blocks: base, blockSamples: blockSamples, outputs: base + pieces.count * blockSamples,
                outputFrames: blockFrames, frames: frames, channelCount: channelCount, filters: &filters)
            done += frames
        }
        return (0..<pieces.count).map { offset in
            (0..<channelCount).map { filters[offset * channelCount + $0].currentState }
        }
    }

    /// Fills `frames` interleaved frames at `block` from `source`.
    private static func readExactly(
        _ frames: Int, channelCount: Int, from source: any SampleSource, into block: UnsafeMutablePointer<Double>,
        firstFrame: Int, name: String
    ) throws {
        var filled = 0
        while filled < frames {
            let read = try source.read(
                into: UnsafeMutableBufferPointer(
                    start: block + filled * channelCount, count: (frames - filled) * channelCount))
            if read == 0 {
                throw SondeError(
                    .io,
                    "\(name): the file ended at frame \(firstFrame + filled) while sonde read it, before the length it had when opened; expected it unchanged until the run ends"
                )
            }
            filled += read
        }
    }

    /// One block of every (piece, channel) sequence through its filter, four lanes a pass,
    /// the outputs thrown away; a lane past the last sequence repeats it into a filter that
    /// is thrown away too.
    private static func filterLanes(
        blocks: UnsafeMutablePointer<Double>, blockSamples: Int, outputs: UnsafeMutablePointer<Double>,
        outputFrames: Int, frames: Int, channelCount: Int, filters: inout [SOSFilter]
    ) {
        let sequences = filters.count
        let laneOutputs = (0..<4).map { outputs + $0 * outputFrames }
        var first = 0
        while first < sequences {
            let chosen = (0..<4).map { Swift.min(first + $0, sequences - 1) }
            var lanes = chosen.map { filters[$0] }
            let inputs = chosen.map { sequence in
                SOSFilter.StridedSamples(
                    UnsafePointer(blocks + (sequence / channelCount) * blockSamples + sequence % channelCount),
                    stride: channelCount)
            }
            SOSFilter.process(lanes: &lanes, inputs: inputs, outputs: laneOutputs, count: frames)
            for lane in 0..<4 where first + lane < sequences {
                filters[first + lane] = lanes[lane]
            }
            first += 4
        }
    }
}
