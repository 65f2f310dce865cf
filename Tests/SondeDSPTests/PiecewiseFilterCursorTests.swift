import SondeDSP
import Testing

/// `PiecewiseFilterCursor`: `PiecewiseSOSFilter.process(_:)`'s doubles, bit for bit, for any
/// blocks the samples arrive in, whether it derives the start states itself or is given them
/// from a later piece on (a segment of a long file).
@Suite("Piecewise filter cursor")
struct PiecewiseFilterCursorTests {
    static let blockSizes = [1, 7, 4096, 4097, 5000, 20_000]

    private func reference() throws -> (filter: PiecewiseSOSFilter, input: [Double], expected: [Double]) {
        let stages = try ["dc", "bandpass:300-3400:8", "notch:100"].map {
            try FilterSpec(parsing: $0).design(sampleRate: PiecewiseFilterTests.sampleRate)
        }
        let filter = PiecewiseSOSFilter(stages: stages, pieceLength: 5000)
        let input = PiecewiseFilterTests.signal(seconds: 0.5, offset: 1000, amplitude: 1, noise: 0.01)
        var expected = input
        filter.process(&expected)
        return (filter, input, expected)
    }

    @Test(arguments: blockSizes)
    func derivedStatesGiveTheReferenceDoubles(_ blockSize: Int) throws {
        let (filter, input, expected) = try reference()
        var cursor = PiecewiseFilterCursor(filter)
        var output = input
        output.withUnsafeMutableBufferPointer { samples in
            var done = 0
            // Vary the block so boundaries fall everywhere.
            var size = blockSize
            while done < samples.count {
                let count = min(size, samples.count - done)
                cursor.process(UnsafeMutableBufferPointer(rebasing: samples[done..<(done + count)]))
                done += count
                size = size % 3 == 0 ? blockSize : size + 1
            }
        }
        #expect(output.map(\.bitPattern) == expected.map(\.bitPattern))
        #expect(cursor.frame == input.count)
    }

    /// A cursor that starts at piece 3 and is given each start state, blocks split at the
    /// pieces' ends, gives the reference's samples from there on.
    @Test(arguments: blockSizes)
    func givenStatesGiveTheReferenceDoubles(_ blockSize: Int) throws {
        let (filter, input, expected) = try reference()
        let length = filter.pieceLength
        let pieces = (input.count + length - 1) / length
        let finals = input.withUnsafeBufferPointer { input in
            (0..<(pieces - 1)).map { piece in
                filter.zeroStateFinalState(
                    of: UnsafeBufferPointer(rebasing: input[(piece * length)..<((piece + 1) * length)]))
            }
        }
        let starts = filter.startStates(zeroStateFinalStates: finals)
        let first = 3 * length
        var cursor = PiecewiseFilterCursor(filter, startFrame: first, computesStartStates: false)
        #expect(cursor.needsStartState)
        var output = Array(input[first...])
        output.withUnsafeMutableBufferPointer { samples in
            var done = 0
            while done < samples.count {
                if cursor.needsStartState { cursor.load(startState: starts[cursor.piece]) }
                let count = min(blockSize, samples.count - done, cursor.samplesToPieceEnd)
                cursor.process(UnsafeMutableBufferPointer(rebasing: samples[done..<(done + count)]))
                done += count
            }
        }
        #expect(output.map(\.bitPattern) == expected[first...].map(\.bitPattern))
    }

    /// Two channels of an interleaved block side by side give each channel's doubles alone,
    /// both when the cursors derive their start states and when they are given them.
    @Test(arguments: blockSizes)
    func channelPairsGiveEachChannelsDoubles(_ blockSize: Int) throws {
        let (filter, input, expected) = try reference()
        let other = input.map { 0.5 * $0 - 3 }
        var otherExpected = other
        filter.process(&otherExpected)
        let length = filter.pieceLength
        let finals = [input, other].map { channel in
            channel.withUnsafeBufferPointer { samples in
                (0..<((samples.count - 1) / length)).map { piece in
                    filter.zeroStateFinalState(
                        of: UnsafeBufferPointer(rebasing: samples[(piece * length)..<((piece + 1) * length)]))
                }
            }
        }
        let starts = finals.map { filter.startStates(zeroStateFinalStates: $0) }
        // A third channel after the pair, as in a block of three.
        let interleaved: [Double] = (0..<input.count).flatMap { [input[$0], other[$0], 0.0] }
        for derives in [true, false] {
            var first = PiecewiseFilterCursor(filter, computesStartStates: derives)
            var second = PiecewiseFilterCursor(filter, computesStartStates: derives)
            var a = [Double](repeating: 0, count: input.count), b = a
            interleaved.withUnsafeBufferPointer { block in
                a.withUnsafeMutableBufferPointer { a in
                    b.withUnsafeMutableBufferPointer { b in
                        var done = 0
                        while done < input.count {
                            if first.needsStartState {
                                first.load(startState: starts[0][first.piece])
                                second.load(startState: starts[1][second.piece])
                            }
                            let count = min(
                                blockSize, input.count - done, derives ? Int.max : first.samplesToPieceEnd)
                            guard let base = block.baseAddress else { return }
                            PiecewiseFilterCursor.process(
                                &first, &second, interleaved: base + 3 * done, stride: 3,
                                into: UnsafeMutableBufferPointer(rebasing: a[done..<(done + count)]),
                                UnsafeMutableBufferPointer(rebasing: b[done..<(done + count)]))
                            done += count
                        }
                    }
                }
            }
            #expect(a.map(\.bitPattern) == expected.map(\.bitPattern), "derives \(derives)")
            #expect(b.map(\.bitPattern) == otherExpected.map(\.bitPattern), "derives \(derives)")
        }
    }
}
