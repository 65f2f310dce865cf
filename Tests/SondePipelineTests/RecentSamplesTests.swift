import SondeCore
import SondePipeline
import Synchronization
import Testing

/// `RecentSamples` and `SampleTapSource`: the live screen's sample tap keeps the newest
/// `capacity` frames per channel, drops the oldest, never grows, and a reader at any pace
/// never holds up the source.
@Suite struct RecentSamplesTests {
    /// Frames `start..<start+count` of two channels: channel 0 is the frame index, channel 1 its negative.
    static func block(_ start: Int, _ count: Int) -> [Double] {
        (start..<(start + count)).flatMap { [Double($0), -Double($0)] }
    }

    @Test(arguments: [1, 5, 8, 13, 100])
    func keepsTheNewestCapacityFramesInOrder(blockSize: Int) {
        let recent = RecentSamples(channelCount: 2, capacity: 8)
        #expect(recent.capacity == 8)
        #expect(recent.snapshot() == .init(channels: [[], []], written: 0))
        var written = 0
        for _ in 0..<7 {
            Self.block(written, blockSize).withUnsafeBufferPointer { recent.append($0, frames: blockSize) }
            written += blockSize
            let snapshot = recent.snapshot()
            let kept = min(written, 8)
            #expect(snapshot.written == written)
            #expect(snapshot.channels[0] == ((written - kept)..<written).map(Double.init))
            #expect(snapshot.channels[1] == ((written - kept)..<written).map { -Double($0) })
        }
    }

    @Test func roundsTheCapacityUpToAPowerOfTwo() {
        #expect(RecentSamples(channelCount: 1, capacity: 2000).capacity == 2048)
        #expect(RecentSamples(channelCount: 1, capacity: 0).capacity == 1)
    }

    /// A source read through the tap gives the graph the very samples it gave before, and the
    /// ring the newest of them, however many blocks went by with no reader.
    @Test func theTapPassesSamplesThroughAndKeepsTheNewest() throws {
        let profile = try DeviceProfile.parse(Self.profile, source: "test")
        let plain = SimulatedDevice(profile: profile, seed: 7)
        let recent = RecentSamples(channelCount: 1, capacity: 256)
        let tapped = SampleTapSource(base: SimulatedDevice(profile: profile, seed: 7), into: recent)
        var expected: [Double] = []
        var buffer = [Double](repeating: 0, count: 100)
        var other = buffer
        for _ in 0..<50 {
            let a = try buffer.withUnsafeMutableBufferPointer { try plain.read(into: $0) }
            let b = try other.withUnsafeMutableBufferPointer { try tapped.read(into: $0) }
            #expect(a == b && buffer == other)
            expected += buffer[0..<a]
        }
        let snapshot = recent.snapshot()
        #expect(snapshot.written == 5000)
        #expect(snapshot.channels[0] == Array(expected.suffix(256)))
    }

    /// A writer appending as fast as it can, a reader taking snapshots as fast as it can:
    /// every snapshot is whole (consecutive frames) and the writer's 200,000 frames go
    /// through; the ring never holds more than its capacity.
    @Test func aBusyReaderNeitherBlocksNorTearsTheWriter() async {
        let recent = RecentSamples(channelCount: 2, capacity: 64)
        let done = Atomic<Bool>(false)
        async let reader: Int = {
            var torn = 0
            while !done.load(ordering: .relaxed) {
                let snapshot = recent.snapshot()
                #expect(snapshot.channels[0].count <= 64)
                let first = snapshot.channels[0].first ?? 0
                if snapshot.channels[0] != (0..<snapshot.channels[0].count).map({ first + Double($0) }) { torn += 1 }
                await Task.yield()
            }
            return torn
        }()
        var written = 0
        let block = 37
        while written < 200_000 {
            Self.block(written, block).withUnsafeBufferPointer { recent.append($0, frames: block) }
            written += block
        }
        done.store(true, ordering: .relaxed)
        #expect(await reader == 0)
        #expect(recent.snapshot().written == written)
    }

    static let profile = """
        name = "tone"
        rate = 1000

        [[channels]]
        name = "x"
        tones = [{ frequency = 50, amplitude = 1 }]
        noise = 0.1
        """
}
