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
