import Testing

@testable import SondePipeline

/// The last channel of a ticket to finish puts every channel's records in output order.
@Suite struct RecordAssemblyTests {
    static func part(channel: Int, frames: Int) -> RecordAssembly.Part {
        var part = RecordAssembly.Part()
        for frame in 0..<frames {
            part.bytes += (0...((frame + channel) % 4)).map { _ in UInt8(65 + 10 * channel + frame) }
            part.ends.append(part.bytes.count)
        }
        return part
    }

    @Test(arguments: [[0, 1, 2], [2, 0, 1], [1, 2, 0]])
    func theLastToArriveGetsTheRecordsFrameByFrame(order: [Int]) throws {
        let buffers = JobBuffers(jobsInFlight: 4, blockCapacity: 16, channelCount: 3)
        let assembly = RecordAssembly(channelCount: 3)
        var expected: [UInt8] = []
        var expectedEnds: [Int] = []
        for frame in 0..<5 {
            for channel in 0..<3 {
                let part = Self.part(channel: channel, frames: 5)
                expected += part.bytes[(frame == 0 ? 0 : part.ends[frame - 1])..<part.ends[frame]]
                expectedEnds.append(expected.count)
            }
        }
        for round in 0..<2 {
            var records: RecordAssembly.Part?
            for (arrival, channel) in order.enumerated() {
                let result = assembly.deposit(
                    Self.part(channel: channel, frames: 5), channel: channel, frameCount: 5, buffers: buffers)
                #expect((result == nil) == (arrival < 2), "round \(round)")
                records = result ?? records
            }
            #expect(records?.bytes == expected)
            #expect(records?.ends == expectedEnds)
            assembly.reset()
        }
    }

    /// A channel without records (its values failed) leaves the ticket without any.
    @Test func aChannelWithoutRecordsLeavesNone() {
        let buffers = JobBuffers(jobsInFlight: 4, blockCapacity: 16, channelCount: 2)
        let assembly = RecordAssembly(channelCount: 2)
        #expect(assembly.deposit(Self.part(channel: 0, frames: 3), channel: 0, frameCount: 3, buffers: buffers) == nil)
        #expect(assembly.deposit(RecordAssembly.Part(), channel: 1, frameCount: 3, buffers: buffers) == nil)
    }
}
