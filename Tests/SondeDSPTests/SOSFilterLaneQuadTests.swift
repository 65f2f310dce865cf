import SondeDSP
import Testing

/// `SOSFilter.process(lanes:inputs:outputs:count:)`: four sequences in the lanes of one pass
/// give each sequence's scalar `process(_:into:)` doubles and final state, bit for bit, for
/// odd and even section counts, strided and contiguous inputs, and any chunking.
@Suite("SOS filter, four lanes")
struct SOSFilterLaneQuadTests {
    static let designs = ["highpass:10:4", "lowpass:1000:2", "dc bandpass:300-3400:8 notch:100", "notch:50"]

    @Test(arguments: designs, [1, 3, 4096])
    func lanesGiveEachSequencesScalarDoubles(_ chain: String, _ chunk: Int) throws {
        let stages = try chain.split(separator: " ").map {
            try FilterSpec(parsing: String($0)).design(sampleRate: PiecewiseFilterTests.sampleRate)
        }
        let sections = PiecewiseSOSFilter(stages: stages, pieceLength: 1).sections
        let frames = 10_007
        // Lanes 0 and 1: two channels of an interleaved block of 3; lanes 2 and 3: one
        // contiguous sequence each, lane 3 with a large offset.
        let interleaved = PiecewiseFilterTests.signal(
            seconds: Double(3 * frames + 3) / PiecewiseFilterTests.sampleRate,
            offset: 3, amplitude: 1, noise: 0.1)
        let third = PiecewiseFilterTests.signal(
            seconds: Double(frames + 1) / PiecewiseFilterTests.sampleRate, offset: 0, amplitude: 2, noise: 0.01)
        let fourth = third.map { 1e5 + $0 }
        let sequences: [[Double]] = [
            stride(from: 0, to: 3 * frames, by: 3).map { interleaved[$0] },
            stride(from: 2, to: 3 * frames, by: 3).map { interleaved[$0] }, Array(third.prefix(frames)),
            Array(fourth.prefix(frames)),
        ]
        var expectedFilters = [SOSFilter](repeating: SOSFilter(sections), count: 4)
        let expected = (0..<4).map { lane in
            var samples = sequences[lane]
            expectedFilters[lane].process(&samples)
            return samples
        }
        var lanes = [SOSFilter](repeating: SOSFilter(sections), count: 4)
        let outputs = (0..<4).map { _ in UnsafeMutableBufferPointer<Double>.allocate(capacity: frames) }
        defer { outputs.forEach { $0.deallocate() } }
        try #require(interleaved.count >= 3 * frames && third.count >= frames)
        interleaved.withUnsafeBufferPointer { block in
            third.withUnsafeBufferPointer { third in
                fourth.withUnsafeBufferPointer { fourth in
                    var done = 0
                    while done < frames {
                        let count = min(chunk, frames - done)
                        SOSFilter.process(
                            lanes: &lanes,
                            inputs: [
                                .init(block.baseAddress! + 3 * done, stride: 3),
                                .init(block.baseAddress! + 3 * done + 2, stride: 3),
                                .init(third.baseAddress! + done), .init(fourth.baseAddress! + done),
                            ],
                            outputs: outputs.map { $0.baseAddress! + done }, count: count)
                        done += count
                    }
                }
            }
        }
        for lane in 0..<4 {
            #expect(
                Array(outputs[lane]).map(\.bitPattern) == expected[lane].prefix(frames).map(\.bitPattern),
                "lane \(lane)")
            #expect(
                lanes[lane].currentState.map(\.bitPattern) == expectedFilters[lane].currentState.map(\.bitPattern),
                "lane \(lane)'s state")
        }
    }
}
