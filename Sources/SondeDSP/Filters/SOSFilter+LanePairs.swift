/// Where the first section of a two-channel pass reads its samples, one `SIMD2` per instant.
protocol LanePairSource {
    subscript(_ n: Int) -> SIMD2<Double> { get }
}

/// Two de-interleaved channels (and every in-place pass after the first).
struct SeparateLanes: LanePairSource {
    let first: UnsafePointer<Double>
    let second: UnsafePointer<Double>

    init(first: UnsafeMutablePointer<Double>, second: UnsafeMutablePointer<Double>) {
        self.first = UnsafePointer(first)
        self.second = UnsafePointer(second)
    }

    @inline(__always)
    subscript(_ n: Int) -> SIMD2<Double> { SIMD2(first[n], second[n]) }
}

/// Two adjacent channels of an interleaved block: one unaligned 16-byte load per instant.
struct InterleavedLanes: LanePairSource {
    let base: UnsafePointer<Double>
    let stride: Int

    @inline(__always)
    subscript(_ n: Int) -> SIMD2<Double> { UnsafeRawPointer(base + n * stride).loadUnaligned(as: SIMD2<Double>.self) }
}

/// One channel in both lanes: each lane runs its own state over the same samples (a piece
/// filtered from its start state beside the same piece from zero, `PiecewiseFilterCursor`).
struct RepeatedLane: LanePairSource {
    let base: UnsafePointer<Double>

    @inline(__always)
    subscript(_ n: Int) -> SIMD2<Double> { SIMD2(repeating: base[n]) }
}

extension SOSFilter {
    /// Filters one channel twice in one pass, `first` and `second` each from its own state
    /// (the same design), into two outputs: the doubles two `process(_:into:)` calls give,
    /// for about the time of one (a biquad is latency-bound; the second lane is idle).
    /// - Precondition: outputs as long as `input`; `firstOutput` may be `input`'s memory.
    public static func process(
        _ first: inout SOSFilter, _ second: inout SOSFilter, repeating input: UnsafeBufferPointer<Double>,
        into firstOutput: UnsafeMutableBufferPointer<Double>, _ secondOutput: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(
            firstOutput.count == input.count && secondOutput.count == input.count,
            "SOSFilter.process: outputs of \(firstOutput.count) and \(secondOutput.count) samples, input \(input.count)"
        )
        guard let source = input.baseAddress, let a = firstOutput.baseAddress, let b = secondOutput.baseAddress,
            !input.isEmpty
        else { return }
        process(&first, &second, input: RepeatedLane(base: source), first: a, second: b, count: input.count)
    }
}
