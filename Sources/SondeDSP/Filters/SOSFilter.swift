/// Runs second-order sections over a continuous stream, exactly as `scipy.signal.sosfilt` does.
///
/// Transposed direct form II, per sample and section: `y = b0·x + z0`,
/// `z0 = b1·x - a1·y + z1`, `z1 = b2·x - a2·y`, evaluated in that order and grouping, in
/// double precision, so the output is bit for bit scipy's on the same machine class. State
/// starts at zero and carries across calls: filtering a signal in one call or in any chunking
/// gives identical doubles.
///
/// The block is run through the sections a pair at a time rather than each sample through all
/// sections: every section sees the same inputs in the same order either way, so the result is
/// identical, and a pair's coefficients and state stay in registers.
public struct SOSFilter: Sendable {
    /// The design being run.
    public let sections: SecondOrderSections
    /// `b0 b1 b2 a1 a2` per section (`a0` is 1 and never used); internal for the four-lane
    /// form (`SOSFilter+LaneQuads.swift`).
    let taps: [Double]
    /// `z0 z1` per section (internal, not private: `SOSFilter+State.swift` sets and reads it
    /// for a filter cut into pieces).
    var state: [Double]

    /// - Parameter sections: the design; state starts at zero.
    public init(_ sections: SecondOrderSections) {
        self.sections = sections
        var taps: [Double] = []
        taps.reserveCapacity(5 * sections.sectionCount)
        for section in 0..<sections.sectionCount {
            let row = 6 * section
            taps += [
                sections.coefficients[row], sections.coefficients[row + 1], sections.coefficients[row + 2],
                sections.coefficients[row + 4], sections.coefficients[row + 5],
            ]
        }
        self.taps = taps
        state = [Double](repeating: 0, count: 2 * sections.sectionCount)
    }

    /// Clears the state (as at construction) and keeps the design, for a new, unrelated stream.
    public mutating func reset() {
        for index in state.indices {
            state[index] = 0
        }
    }

    /// Filters `samples` in place, continuing from the previous call. Allocates nothing.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Double>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        run(from: UnsafePointer(base), to: base, count: samples.count)
    }

    /// Filters `input` into `output` (which may be the same memory), continuing from the
    /// previous call. Allocates nothing.
    /// - Precondition: `output.count == input.count`.
    public mutating func process(_ input: UnsafeBufferPointer<Double>, into output: UnsafeMutableBufferPointer<Double>)
    {
        precondition(
            output.count == input.count, "SOSFilter.process: output has \(output.count) samples, input \(input.count)")
        guard let source = input.baseAddress, let destination = output.baseAddress, !input.isEmpty else { return }
        run(from: source, to: destination, count: input.count)
    }

    /// Filters `samples` in place; a convenience for arrays.
    public mutating func process(_ samples: inout [Double]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }

    /// Filters two adjacent channels of an interleaved block into `firstOutput` and
    /// `secondOutput`, each continuing from its own previous call: the same doubles as
    /// de-interleaving each channel and calling `process(_:)` on it, without the separate
    /// pass that copies them out (the first section reads both lanes with one load).
    /// `first` and `second` must run the same design (every channel of a stream does).
    /// Allocates nothing.
    ///
    /// Why: a biquad is latency-bound (each sample waits for the previous one's state), so
    /// one channel leaves the core's vector lanes idle. Two channels side by side in the two
    /// lanes of a `SIMD2` cost the same time as one, and each lane performs exactly the
    /// scalar operations in the same order, so the output is bit for bit the same.
    /// - Parameters:
    ///   - interleaved: the first channel's first sample; the second channel's follows it.
    ///   - stride: samples from one frame to the next (the block's channel count, at least 2).
    /// - Precondition: equal designs, outputs of equal length (the frames to filter).
    public static func process(
        _ first: inout SOSFilter, _ second: inout SOSFilter, interleaved: UnsafePointer<Double>, stride: Int,
        into firstOutput: UnsafeMutableBufferPointer<Double>, _ secondOutput: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(
            stride >= 2 && firstOutput.count == secondOutput.count, "SOSFilter.process: bad interleaved layout")
        guard let a = firstOutput.baseAddress, let b = secondOutput.baseAddress, !firstOutput.isEmpty else { return }
        process(
            &first, &second, input: InterleavedLanes(base: interleaved, stride: stride), first: a, second: b,
            count: firstOutput.count)
    }

    /// The section passes of the two-channel form: the first reads `input`, later ones
    /// work in place on the two outputs. Inlined into both callers so that `input` is a
    /// concrete type: unspecialised, every sample went through witness tables and copies
    /// (perf: the filter took twice as long, and memmove a sixth of the run).
    @inline(__always)
    static func process(
        _ first: inout SOSFilter, _ second: inout SOSFilter, input: some LanePairSource,
        first a: UnsafeMutablePointer<Double>, second b: UnsafeMutablePointer<Double>, count: Int
    ) {
        precondition(first.taps == second.taps, "SOSFilter.process: channels with different designs")
        let sectionCount = first.sections.sectionCount
        // Lane 0 is `first`, lane 1 `second`; state is copied in and out around the loops
        // (on the stack: designs have at most a few dozen sections).
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 2 * sectionCount) { state in
            for index in 0..<(2 * sectionCount) {
                state[index] = SIMD2(first.state[index], second.state[index])
            }
            first.taps.withUnsafeBufferPointer { taps in
                guard let taps = taps.baseAddress, let state = state.baseAddress else { return }
                let inPlace = SeparateLanes(first: a, second: b)
                var section = 0
                while section + 1 < sectionCount {
                    if section == 0 {
                        runSectionPair(taps: taps, state: state, input: input, first: a, second: b, count: count)
                    } else {
                        runSectionPair(
                            taps: taps + 5 * section, state: state + 2 * section, input: inPlace, first: a, second: b,
                            count: count)
                    }
                    section += 2
                }
                if section < sectionCount {
                    if section == 0 {
                        runSection(taps: taps, state: state, input: input, first: a, second: b, count: count)
                    } else {
                        runSection(
                            taps: taps + 5 * section, state: state + 2 * section, input: inPlace, first: a, second: b,
                            count: count)
                    }
                }
            }
            for index in 0..<(2 * sectionCount) {
                first.state[index] = state[index][0]
                second.state[index] = state[index][1]
            }
        }
    }

    /// The first pass reads `source`, later passes work in place on `destination`.
    private mutating func run(
        from source: UnsafePointer<Double>, to destination: UnsafeMutablePointer<Double>, count: Int
    ) {
        let sectionCount = sections.sectionCount
        taps.withUnsafeBufferPointer { taps in
            state.withUnsafeMutableBufferPointer { state in
                guard let taps = taps.baseAddress, let state = state.baseAddress else { return }
                var input = source
                var section = 0
                while section + 1 < sectionCount {
                    Self.runSectionPair(
                        taps: taps + 5 * section, state: state + 2 * section,
                        from: input, to: destination, count: count
                    )
                    input = UnsafePointer(destination)
                    section += 2
                }
                if section < sectionCount {
                    Self.runSection(
                        taps: taps + 5 * section, state: state + 2 * section,
                        from: input, to: destination, count: count
                    )
                }
            }
        }
    }

    /// One biquad over the block.
    @inline(__always)
    private static func runSection(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<Double>,
        from input: UnsafePointer<Double>, to output: UnsafeMutablePointer<Double>, count: Int
    ) {
        let b0 = taps[0]
        let b1 = taps[1]
        let b2 = taps[2]
        let a1 = taps[3]
        let a2 = taps[4]
        var z0 = state[0]
        var z1 = state[1]
        for n in 0..<count {
            let x = input[n]
            let y = b0 * x + z0
            // Grouping as scipy's _sosfilt: ((b1·x) - (a1·y)) + z1, no fused multiply-add.
            z0 = b1 * x - a1 * y + z1
            z1 = b2 * x - a2 * y
            output[n] = y
        }
        state[0] = z0
        state[1] = z1
    }

    /// Two consecutive biquads in one loop: the same operations as two `runSection` passes,
    /// but the two state recurrences are independent chains the CPU overlaps. Each TDF-II
    /// section is latency-bound (four dependent operations per sample); measured on the
    /// development machine (AMD EPYC) this takes 2.9 → 1.5 ns per sample and section,
    /// where the arithmetic itself becomes the limit (four sections at once measured no faster).
    /// Pairs, not more: 14 live coefficients and states fit the 16 SSE registers.
    @inline(__always)
    private static func runSectionPair(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<Double>,
        from input: UnsafePointer<Double>, to output: UnsafeMutablePointer<Double>, count: Int
    ) {
        let b0 = taps[0]
        let b1 = taps[1]
        let b2 = taps[2]
        let a1 = taps[3]
        let a2 = taps[4]
        let c0 = taps[5]
        let c1 = taps[6]
        let c2 = taps[7]
        let d1 = taps[8]
        let d2 = taps[9]
        var z0 = state[0]
        var z1 = state[1]
        var w0 = state[2]
        var w1 = state[3]
        for n in 0..<count {
            let x = input[n]
            let y = b0 * x + z0
            z0 = b1 * x - a1 * y + z1
            z1 = b2 * x - a2 * y
            let v = c0 * y + w0
            w0 = c1 * y - d1 * v + w1
            w1 = c2 * y - d2 * v
            output[n] = v
        }
        state[0] = z0
        state[1] = z1
        state[2] = w0
        state[3] = w1
    }
    /// `runSection` on two channels at once, one per lane.
    @inline(__always)
    private static func runSection(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<SIMD2<Double>>, input: some LanePairSource,
        first: UnsafeMutablePointer<Double>, second: UnsafeMutablePointer<Double>, count: Int
    ) {
        let b0 = SIMD2(repeating: taps[0]), b1 = SIMD2(repeating: taps[1]), b2 = SIMD2(repeating: taps[2])
        let a1 = SIMD2(repeating: taps[3]), a2 = SIMD2(repeating: taps[4])
        var z0 = state[0]
        var z1 = state[1]
        for n in 0..<count {
            let x = input[n]
            let y = b0 * x + z0
            z0 = b1 * x - a1 * y + z1
            z1 = b2 * x - a2 * y
            first[n] = y[0]
            second[n] = y[1]
        }
        state[0] = z0
        state[1] = z1
    }

    /// `runSectionPair` on two channels at once, one per lane.
    @inline(__always)
    private static func runSectionPair(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<SIMD2<Double>>, input: some LanePairSource,
        first: UnsafeMutablePointer<Double>, second: UnsafeMutablePointer<Double>, count: Int
    ) {
        let b0 = SIMD2(repeating: taps[0]), b1 = SIMD2(repeating: taps[1]), b2 = SIMD2(repeating: taps[2])
        let a1 = SIMD2(repeating: taps[3]), a2 = SIMD2(repeating: taps[4])
        let c0 = SIMD2(repeating: taps[5]), c1 = SIMD2(repeating: taps[6]), c2 = SIMD2(repeating: taps[7])
        let d1 = SIMD2(repeating: taps[8]), d2 = SIMD2(repeating: taps[9])
        var z0 = state[0]
        var z1 = state[1]
        var w0 = state[2]
        var w1 = state[3]
        for n in 0..<count {
            let x = input[n]
            let y = b0 * x + z0
            z0 = b1 * x - a1 * y + z1
            z1 = b2 * x - a2 * y
            let v = c0 * y + w0
            w0 = c1 * y - d1 * v + w1
            w1 = c2 * y - d2 * v
            first[n] = v[0]
            second[n] = v[1]
        }
        state[0] = z0
        state[1] = z1
        state[2] = w0
        state[3] = w1
    }
}
