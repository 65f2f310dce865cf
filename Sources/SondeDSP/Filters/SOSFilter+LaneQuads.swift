/// Four sequences of samples through the same cascade at once, one per lane of a
/// `SIMD4<Double>`: the doubles four `SOSFilter.process(_:into:)` calls give, bit for bit.
///
/// Why: a biquad is latency-bound (each sample waits for the previous one's state), so one
/// sequence leaves most of a core's vector unit idle; with AVX2 four lanes cost about the
/// time of one. A filter cut into pieces runs every piece twice (from zero for `z[b]`, then
/// from `s[b]`, `PiecewiseSOSFilter`): four pieces' zero-state passes, or two channels from
/// their start states beside the same two from zero, share one pass.
extension SOSFilter {
    /// One lane's samples: `base[n * stride]` for `n` in `0 ..< count`.
    public struct StridedSamples {
        public let base: UnsafePointer<Double>
        public let stride: Int

        /// - Parameters:
        ///   - base: the first sample.
        ///   - stride: samples from one to the next (1 for a contiguous channel, the channel
        ///     count for one channel of an interleaved block).
        public init(_ base: UnsafePointer<Double>, stride: Int = 1) {
            self.base = base
            self.stride = stride
        }
    }

    /// Filters four lanes, each continuing from its own filter's previous call, into four
    /// outputs of `count` samples (an output may be its own lane's input when the stride is
    /// 1). Allocates only the lanes' states on the stack.
    /// - Precondition: four filters of one design, four inputs and four outputs, the
    ///   outputs distinct memory.
    public static func process(
        lanes filters: inout [SOSFilter], inputs: [StridedSamples], outputs: [UnsafeMutablePointer<Double>], count: Int
    ) {
        precondition(
            filters.count == 4 && inputs.count == 4 && outputs.count == 4,
            "SOSFilter.process(lanes:): \(filters.count) filters, \(inputs.count) inputs, \(outputs.count) outputs; expected 4 each"
        )
        precondition(
            filters.allSatisfy { $0.taps == filters[0].taps }, "SOSFilter.process(lanes:): lanes with different designs"
        )
        guard count > 0 else { return }
        let sectionCount = filters[0].sections.sectionCount
        let first = QuadLanes(inputs[0], inputs[1], inputs[2], inputs[3])
        let inPlace = QuadLanes(
            StridedSamples(outputs[0]), StridedSamples(outputs[1]), StridedSamples(outputs[2]),
            StridedSamples(outputs[3]))
        let sinks = QuadOutputs(outputs[0], outputs[1], outputs[2], outputs[3])
        withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: 2 * sectionCount) { state in
            for index in 0..<(2 * sectionCount) {
                state[index] = SIMD4(
                    filters[0].state[index], filters[1].state[index], filters[2].state[index],
                    filters[3].state[index])
            }
            filters[0].taps.withUnsafeBufferPointer { taps in
                guard let taps = taps.baseAddress, let state = state.baseAddress else { return }
                var section = 0
                while section + 1 < sectionCount {
                    let source = section == 0 ? first : inPlace
                    runSectionPair(
                        taps: taps + 5 * section, state: state + 2 * section, input: source, output: sinks, count: count
                    )
                    section += 2
                }
                if section < sectionCount {
                    let source = section == 0 ? first : inPlace
                    runSection(
                        taps: taps + 5 * section, state: state + 2 * section, input: source, output: sinks, count: count
                    )
                }
            }
            for index in 0..<(2 * sectionCount) {
                for lane in 0..<4 { filters[lane].state[index] = state[index][lane] }
            }
        }
    }

    /// `runSection` on four lanes.
    @inline(__always)
    private static func runSection(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<SIMD4<Double>>, input: QuadLanes,
        output: QuadOutputs, count: Int
    ) {
        let b0 = SIMD4(repeating: taps[0]), b1 = SIMD4(repeating: taps[1]), b2 = SIMD4(repeating: taps[2])
        let a1 = SIMD4(repeating: taps[3]), a2 = SIMD4(repeating: taps[4])
        var z0 = state[0]
        var z1 = state[1]
        for n in 0..<count {
            let x = input[n]
            let y = b0 * x + z0
            z0 = b1 * x - a1 * y + z1
            z1 = b2 * x - a2 * y
            output.store(y, at: n)
        }
        state[0] = z0
        state[1] = z1
    }

    /// `runSectionPair` on four lanes.
    @inline(__always)
    private static func runSectionPair(
        taps: UnsafePointer<Double>, state: UnsafeMutablePointer<SIMD4<Double>>, input: QuadLanes,
        output: QuadOutputs, count: Int
    ) {
        let b0 = SIMD4(repeating: taps[0]), b1 = SIMD4(repeating: taps[1]), b2 = SIMD4(repeating: taps[2])
        let a1 = SIMD4(repeating: taps[3]), a2 = SIMD4(repeating: taps[4])
        let c0 = SIMD4(repeating: taps[5]), c1 = SIMD4(repeating: taps[6]), c2 = SIMD4(repeating: taps[7])
        let d1 = SIMD4(repeating: taps[8]), d2 = SIMD4(repeating: taps[9])
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
            output.store(v, at: n)
        }
        state[0] = z0
        state[1] = z1
        state[2] = w0
        state[3] = w1
    }
}

/// Where the first section of a four-lane pass reads, one `SIMD4` per instant: four
/// strided loads (later sections read the outputs, stride 1).
private struct QuadLanes {
    let p0: UnsafePointer<Double>, p1: UnsafePointer<Double>, p2: UnsafePointer<Double>, p3: UnsafePointer<Double>
    let s0: Int, s1: Int, s2: Int, s3: Int

    init(
        _ a: SOSFilter.StridedSamples, _ b: SOSFilter.StridedSamples, _ c: SOSFilter.StridedSamples,
        _ d: SOSFilter.StridedSamples
    ) {
        (p0, p1, p2, p3) = (a.base, b.base, c.base, d.base)
        (s0, s1, s2, s3) = (a.stride, b.stride, c.stride, d.stride)
    }

    @inline(__always)
    subscript(_ n: Int) -> SIMD4<Double> { SIMD4(p0[n * s0], p1[n * s1], p2[n * s2], p3[n * s3]) }
}

/// The four outputs of a four-lane pass.
private struct QuadOutputs {
    let p0: UnsafeMutablePointer<Double>, p1: UnsafeMutablePointer<Double>
    let p2: UnsafeMutablePointer<Double>, p3: UnsafeMutablePointer<Double>

    init(
        _ a: UnsafeMutablePointer<Double>, _ b: UnsafeMutablePointer<Double>, _ c: UnsafeMutablePointer<Double>,
        _ d: UnsafeMutablePointer<Double>
    ) {
        (p0, p1, p2, p3) = (a, b, c, d)
    }

    @inline(__always)
    func store(_ value: SIMD4<Double>, at n: Int) {
        p0[n] = value[0]
        p1[n] = value[1]
        p2[n] = value[2]
        p3[n] = value[3]
    }
}
