import SondeDSP
import Testing
import _SondeTestSupport

/// Running second-order sections: agreement with scipy's `sosfilt`, state carried across
/// blocks, chunking invariance and `reset()`.
@Suite("Filter processing")
struct FilterProcessingTests {
    /// Tolerance: 1e-9 of the reference signal's peak, end to end (our design, our runtime).
    /// Observed: ~1e-14 or better; most cases are bit-identical.
    @Test(arguments: FilterFixtures.cases)
    func outputMatchesScipy(_ golden: FilterGoldenFile.Stage) throws {
        var filter = SOSFilter(try FilterSpec(parsing: golden.spec).design(sampleRate: golden.sampleRate))
        var samples = FilterFixtures.input
        filter.process(&samples)
        #expect(maximumDeviationRelativeToPeak(samples, golden.output) <= 1e-9)
    }

    /// The runtime alone, on scipy's own coefficients. Same arithmetic in the same order as
    /// `_sosfilt`, so on the machine that wrote the fixtures the output is bit-identical; the
    /// tolerance (1e-12 of peak) only allows for a scipy build that fuses multiply-adds.
    @Test(arguments: FilterFixtures.cases)
    func runtimeMatchesSosfiltOnScipyCoefficients(_ golden: FilterGoldenFile.Stage) throws {
        var filter = SOSFilter(try SecondOrderSections(coefficients: golden.sos.flatMap { $0 }))
        var samples = FilterFixtures.input
        filter.process(&samples)
        #expect(maximumDeviationRelativeToPeak(samples, golden.output) <= 1e-12)
    }

    /// Bands centred on fs/4: scipy's section order there depends on the machine, so only the
    /// filtered output (the same filter whatever the order) is compared, to 1e-9 of peak.
    @Test(arguments: FilterFixtures.orderAmbiguous)
    func orderAmbiguousDesignsFilterLikeScipy(_ golden: FilterGoldenFile.Stage) throws {
        let sections = try FilterSpec(parsing: golden.spec).design(sampleRate: golden.sampleRate)
        #expect(sections.sectionCount == golden.sos.count)
        var filter = SOSFilter(sections)
        var samples = FilterFixtures.input
        filter.process(&samples)
        #expect(maximumDeviationRelativeToPeak(samples, golden.output) <= 1e-9)
    }

    /// A chain equals scipy applying `sosfilt` stage after stage; tolerance 1e-9 of peak.
    @Test(arguments: FilterFixtures.chains)
    func chainMatchesScipy(_ golden: FilterGoldenFile.Chain) throws {
        var chain = try FilterChain(specs: golden.specs.map(FilterSpec.init(parsing:)), sampleRate: golden.sampleRate)
        var samples = FilterFixtures.input
        chain.process(&samples)
        #expect(maximumDeviationRelativeToPeak(samples, golden.output) <= 1e-9)
    }

    static let chunkingSpecs: [[String]] = [
        ["lowpass:1000"], ["lowpass:1000:5"], ["highpass:10:4"], ["bandpass:300-3400:8"], ["notch:50:5"], ["dc"],
        ["dc", "bandstop:45-55:2", "notch:100", "lowpass:15000:16"],
    ]

    /// Any chunking gives exactly the doubles one call gives, including empty chunks.
    @Test(arguments: chunkingSpecs)
    func chunkedProcessingEqualsOneCall(_ specs: [String]) throws {
        let designs = try specs.map { try FilterSpec(parsing: $0).design(sampleRate: 44100) }
        let signal = noise(count: 5000, seed: 7)
        var whole = FilterChain(designs)
        var expected = signal
        whole.process(&expected)

        for seed in UInt64(1)...20 {
            var generator = SplitMix64(seed: seed)
            var chunked = FilterChain(designs)
            var samples = signal
            samples.withUnsafeMutableBufferPointer { buffer in
                var start = 0
                while start < buffer.count {
                    let length = min(Int.random(in: 0...700, using: &generator), buffer.count - start)
                    chunked.process(UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + length)]))
                    start += length
                }
            }
            #expect(samples == expected, "seed \(seed)")
        }
    }

    /// Two adjacent channels filtered straight out of an interleaved block of 3 equal each
    /// channel de-interleaved and filtered alone, bit for bit, with any chunking, for odd and
    /// even section counts; the state carried out continues each channel alone; without
    /// stages the call only de-interleaves.
    @Test(arguments: chunkingSpecs + [[]])
    func interleavedPairEqualsEachChannelAlone(_ specs: [String]) throws {
        let designs = try specs.map { try FilterSpec(parsing: $0).design(sampleRate: 44100) }
        let frames = 3000, channels = 3
        let block = noise(count: frames * channels, seed: 31)
        var expected0 = (0..<frames).map { block[$0 * channels] }
        var expected1 = (0..<frames).map { block[$0 * channels + 1] * 1 }
        var alone0 = FilterChain(designs), alone1 = FilterChain(designs)
        alone0.process(&expected0)
        alone1.process(&expected1)

        var generator = SplitMix64(seed: 8)
        var chain0 = FilterChain(designs), chain1 = FilterChain(designs)
        var out0 = [Double](repeating: .nan, count: frames), out1 = out0
        block.withUnsafeBufferPointer { block in
            out0.withUnsafeMutableBufferPointer { out0 in
                out1.withUnsafeMutableBufferPointer { out1 in
                    var start = 0
                    while start < frames {
                        let end = min(start + Int.random(in: 0...500, using: &generator), frames)
                        FilterChain.process(
                            &chain0, &chain1, interleaved: block.baseAddress! + start * channels, stride: channels,
                            into: UnsafeMutableBufferPointer(rebasing: out0[start..<end]),
                            UnsafeMutableBufferPointer(rebasing: out1[start..<end]))
                        start = end
                    }
                }
            }
        }
        #expect(out0 == expected0)
        #expect(out1 == expected1)
        // The state carried out of the pair continues each channel alone.
        var tail = noise(count: 300, seed: 23), tailExpected = tail
        chain1.process(&tail)
        alone1.process(&tailExpected)
        #expect(tail == tailExpected)
    }

    /// Without a filter a pair of channels is only de-interleaved (four frames at a time for
    /// two channels): every sample lands where the scalar loop put it, whatever the count.
    @Test(arguments: [(2, 0), (2, 1), (2, 3), (2, 4), (2, 5), (2, 11), (2, 4096), (3, 9), (5, 13)])
    func withoutAFilterAPairIsExactlyDeinterleaved(channels: Int, frames: Int) {
        let samples = (0..<(channels * frames)).map { Double($0) * 0.5 - 3 }
        var first = FilterChain([])
        var second = FilterChain([])
        var a = [Double](repeating: .nan, count: frames)
        var b = [Double](repeating: .nan, count: frames)
        samples.withUnsafeBufferPointer { interleaved in
            a.withUnsafeMutableBufferPointer { a in
                b.withUnsafeMutableBufferPointer { b in
                    guard let base = interleaved.baseAddress else { return }
                    FilterChain.process(&first, &second, interleaved: base, stride: channels, into: a, b)
                }
            }
        }
        #expect(a == (0..<frames).map { samples[$0 * channels] })
        #expect(b == (0..<frames).map { samples[$0 * channels + 1] })
    }

    @Test func sampleBySampleEqualsOneCall() throws {
        let design = try Butterworth.bandstop(order: 3, low: 1000, high: 2000, sampleRate: 8000)
        let signal = noise(count: 1000, seed: 3)
        var whole = SOSFilter(design)
        var expected = signal
        whole.process(&expected)
        var single = SOSFilter(design)
        var samples = signal
        for index in samples.indices {
            var one = [samples[index]]
            single.process(&one)
            samples[index] = one[0]
        }
        #expect(samples == expected)
    }

    @Test func processIntoEqualsInPlaceAndLeavesInputAlone() throws {
        let chainSpecs = try ["dc", "lowpass:3000:5"].map(FilterSpec.init(parsing:))
        let signal = noise(count: 2048, seed: 11)
        var inPlace = try FilterChain(specs: chainSpecs, sampleRate: 16000)
        var expected = signal
        inPlace.process(&expected)

        var separate = try FilterChain(specs: chainSpecs, sampleRate: 16000)
        var output = [Double](repeating: .nan, count: signal.count)
        signal.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                // Two blocks, to cover state carried between `into` calls too.
                separate.process(
                    UnsafeBufferPointer(rebasing: input[0..<1000]),
                    into: UnsafeMutableBufferPointer(rebasing: output[0..<1000]))
                separate.process(
                    UnsafeBufferPointer(rebasing: input[1000...]),
                    into: UnsafeMutableBufferPointer(rebasing: output[1000...]))
            }
        }
        #expect(output == expected)
        #expect(signal == noise(count: 2048, seed: 11))
    }

    @Test func resetClearsStateAndKeepsDesign() throws {
        let design = try Butterworth.lowpass(order: 8, cutoff: 200, sampleRate: 8000)
        let first = noise(count: 3000, seed: 21)
        let second = noise(count: 3000, seed: 22)

        var fresh = SOSFilter(design)
        var expected = second
        fresh.process(&expected)

        var reused = SOSFilter(design)
        var scratch = first
        reused.process(&scratch)
        reused.reset()
        var samples = second
        reused.process(&samples)
        #expect(samples == expected)
        #expect(reused.sections == design)

        var chain = FilterChain([design, try Notch.design(frequency: 50, quality: 30, sampleRate: 8000)])
        var chainExpected = second
        var freshChain = chain
        freshChain.process(&chainExpected)
        scratch = first
        chain.process(&scratch)
        chain.reset()
        samples = second
        chain.process(&samples)
        #expect(samples == chainExpected)
    }

    @Test func stateStartsAtZero() throws {
        // An impulse through a fresh filter gives the impulse response, whose first sample is b0.
        let design = try Butterworth.highpass(order: 4, cutoff: 10, sampleRate: 51200)
        var filter = SOSFilter(design)
        var impulse = [Double](repeating: 0, count: 4)
        impulse[0] = 1
        filter.process(&impulse)
        let b0 = stride(from: 0, to: design.coefficients.count, by: 6).reduce(1.0) { $0 * design.coefficients[$1] }
        #expect(impulse[0] == b0)
    }

    @Test func copiesFilterIndependently() throws {
        // SOSFilter is a value: a copy taken mid-stream continues from the same state, and the
        // two do not share it afterwards.
        var original = SOSFilter(try Butterworth.bandpass(order: 2, low: 100, high: 900, sampleRate: 8000))
        var head = noise(count: 500, seed: 5)
        original.process(&head)
        var copy = original
        let tail = noise(count: 500, seed: 6)
        var fromOriginal = tail
        original.process(&fromOriginal)
        var fromCopy = tail
        copy.process(&fromCopy)
        #expect(fromOriginal == fromCopy)
    }

    @Test func chainOfStagesEqualsStagesInTurn() throws {
        let designs = try ["highpass:10:4", "bandstop:45-55:2", "notch:100:20", "lowpass:20000:8"].map {
            try FilterSpec(parsing: $0).design(sampleRate: 51200)
        }
        let signal = noise(count: 4096, seed: 9)
        var chain = FilterChain(designs)
        var chained = signal
        chain.process(&chained)
        var staged = signal
        for design in designs {
            var filter = SOSFilter(design)
            filter.process(&staged)
        }
        #expect(chained == staged)
        #expect(chain.stages == designs)
    }

    @Test func emptyChainPassesSamplesThrough() throws {
        var chain = try FilterChain(specs: [], sampleRate: 44100)
        #expect(chain.isEmpty)
        let signal = noise(count: 300, seed: 1)
        var samples = signal
        chain.process(&samples)
        #expect(samples == signal)
        var output = [Double](repeating: 0, count: signal.count)
        signal.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { chain.process(input, into: $0) }
        }
        #expect(output == signal)
    }

    @Test func invalidStageRejectsTheWholeChain() {
        #expect(throws: (any Error).self) {
            try FilterChain(
                specs: [try FilterSpec(parsing: "dc"), try FilterSpec(parsing: "lowpass:5000")], sampleRate: 8000)
        }
    }

    /// Uniform noise in [-1, 1) plus an offset, reproducible from `seed`.
    private func noise(count: Int, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double.random(in: -1..<1, using: &generator) + 0.3 }
    }
}
