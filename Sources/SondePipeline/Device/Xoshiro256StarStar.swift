/// xoshiro256**: small, fast, and defined bit for bit, so noise repeats across machines.
struct Xoshiro256StarStar {
    private var s0, s1, s2, s3: UInt64

    /// Seeds the four words from SplitMix64, as the algorithm's authors recommend.
    init(seed: UInt64) {
        var state = seed
        func splitMix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Approximately standard normal: the Irwin–Hall sum of 12 uniforms minus 6 (mean 0,
    /// variance 1, tails cut at ±6σ), chosen because it needs no logarithm. The uniforms
    /// are 16-bit, four from each 64-bit draw: ample resolution for sensor noise.
    mutating func nextGaussian() -> Double {
        var sum: UInt64 = 0
        for _ in 0..<3 {
            let bits = next()
            sum &+= (bits & 0xFFFF) &+ (bits >> 16 & 0xFFFF) &+ (bits >> 32 & 0xFFFF) &+ (bits >> 48)
        }
        // Each 16-bit uniform is (u + 0.5) / 65536, so 12 of them add 6 halves.
        return (Double(sum) + 6) * 0x1p-16 - 6
    }
}
