import SondeCore
import SondeDSP

extension PipelineGraph {
    /// The zero-state pass of a cut filtered input (issue 49): every piece but the last,
    /// opened again at its start, read and filtered from zero state per channel on the
    /// workers, at most `jobs` pieces at once and in order, each piece's final states handed
    /// to `states`, which gives the segments their start states. Independent pieces, so
    /// neither reading nor filtering is serial; what is, `s[b+1] = Φᴸ·s[b] + z[b]`, is a
    /// `2S × 2S` product a piece.
    func computePieceStates(
        of first: SourceStage, reopening: SourceReopening, states: PieceStates, followers: SegmentFollowers,
        failure: GraphFailure
    ) async {
        let design = states.design
        // The last piece's final state starts no piece.
        let pieces = (reopening.frameCount - 1) / design.pieceLength
        let channelCount = states.channelCount
        let name = first.name
        var failed = false
        await withTaskGroup(of: (any Error)?.self) { group in
            var next = 0
            func ended() -> Bool { failed || stopSignal.hasFired || followers.isCancelled || failure.error != nil }
            func add() {
                guard next < pieces, !ended() else { return }
                let piece = next
                next += 1
                group.addTask {
                    do {
                        // Not timed as `.filter`: that is the framer's, serial per input; this
                        // is the workers' CPU like measuring.
                        let finals = try Self.zeroStateFinals(
                            piece: piece, design: design, channelCount: channelCount, reopening: reopening, name: name)
                        states.deposit(piece: piece, finals: finals)
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

    /// The final state of each channel's filter run from zero over piece `piece`: read in
    /// blocks of 16 Ki frames (a state does not depend on how its samples were chunked), two
    /// channels a pass as the framer does (bit for bit each channel alone).
    /// - Throws: the source's error; `SondeError(.io)` when the file ends before the piece.
    static func zeroStateFinals(
        piece: Int, design: PiecewiseSOSFilter, channelCount: Int, reopening: SourceReopening, name: String
    ) throws -> [[Double]] {
        let length = design.pieceLength
        let source = try reopening.open(piece * length)
        let blockFrames = Swift.min(length, 16_384)
        var filters = [SOSFilter](repeating: SOSFilter(design.sections), count: channelCount)
        var interleaved = [Double](repeating: 0, count: blockFrames * channelCount)
        var first = [Double](repeating: 0, count: blockFrames)
        var second = [Double](repeating: 0, count: blockFrames)
        var done = 0
        while done < length {
            let wanted = Swift.min(blockFrames, length - done)
            var frames = 0
            try interleaved.withUnsafeMutableBufferPointer { block in
                while frames < wanted {
                    let read = try source.read(
                        into: UnsafeMutableBufferPointer(
                            rebasing: block[(frames * channelCount)..<(wanted * channelCount)]))
                    if read == 0 {
                        throw SondeError(
                            .io,
                            "\(name): the file ended at frame \(piece * length + done + frames) while sonde read it, before the length it had when opened; expected it unchanged until the run ends"
                        )
                    }
                    frames += read
                }
            }
            interleaved.withUnsafeBufferPointer { block in
                first.withUnsafeMutableBufferPointer { first in
                    second.withUnsafeMutableBufferPointer { second in
                        let a = UnsafeMutableBufferPointer(rebasing: first[0..<frames])
                        let b = UnsafeMutableBufferPointer(rebasing: second[0..<frames])
                        Self.filter(block, frames: frames, channelCount: channelCount, filters: &filters, a, b)
                    }
                }
            }
            done += frames
        }
        return filters.map(\.currentState)
    }

    /// One block of every channel through its filter, the outputs thrown away.
    private static func filter(
        _ block: UnsafeBufferPointer<Double>, frames: Int, channelCount: Int, filters: inout [SOSFilter],
        _ a: UnsafeMutableBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>
    ) {
        guard let base = block.baseAddress else { return }
        if channelCount == 1 {
            filters[0].process(UnsafeBufferPointer(rebasing: block[0..<frames]), into: a)
            return
        }
        var channel = 0
        while channel + 1 < channelCount {
            var left = filters[channel], right = filters[channel + 1]
            SOSFilter.process(&left, &right, interleaved: base + channel, stride: channelCount, into: a, b)
            filters[channel] = left
            filters[channel + 1] = right
            channel += 2
        }
        if channel < channelCount {
            for n in 0..<frames { a[n] = block[n * channelCount + channel] }
            filters[channel].process(a)
        }
    }
}
