import SondeCore
import SondePipeline
import Testing

/// A failing source ends the stream where it fails, every frame before the failure is
/// read, and the error is kept for after the graph.
@Suite struct DeferredFailureSourceTests {
    /// Gives `frames` frames in blocks of `block`, then throws.
    final class FailingSource: SampleSource {
        let format = StreamFormat(sampleRate: 8000, channelNames: ["x"])
        let notes: [String] = []
        var left: Int
        let block: Int

        init(frames: Int, block: Int) {
            left = frames
            self.block = block
        }

        func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
            guard left > 0 else { throw SondeError(.io, "the probe came loose") }
            let count = min(left, block, buffer.count)
            for index in 0..<count { buffer[index] = Double(left - index) }
            left -= count
            return count
        }
    }

    @Test func theFramesBeforeTheFailureAreReadThenTheStreamEnds() throws {
        let failure = DeferredFailureSource.Failure()
        let source = DeferredFailureSource(base: FailingSource(frames: 8000, block: 1000), keepingFailureIn: failure)
        var buffer = [Double](repeating: 0, count: 4096)
        var total = 0
        var reads = 0
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if got == 0 { break }
            total += got
            reads += 1
        }
        #expect(total == 8000 && reads == 8)
        #expect((failure.value as? SondeError)?.message == "the probe came loose")
        #expect(try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) } == 0, "ended for good")
        #expect(source.format.channelNames == ["x"])
    }
}
