#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Deterministic, vibration-like test signals, the same on every run and machine.
///
/// Each channel is an accelerometer-like mix: a DC offset (gravity, which the high-pass
/// removes), a 500 Hz fundamental with four harmonics, a 3.2 kHz bearing tone and
/// uniform noise from a fixed-seed generator. Frames of it are never flat, so every
/// feature takes its ordinary path (no exact-DFT shortcut), and from N = 512 up the
/// fundamental sits at bin 5 or above, so THD and SNR are computed, not skipped.
public enum TestSignal {
    /// One channel of `count` samples at `sampleRate` Hz; `channel` varies the mix.
    public static func channel(_ channel: Int, count: Int, sampleRate: Double = Workload.sampleRate) -> [Double] {
        var noise = NoiseGenerator(seed: 0x5EED_0000 &+ UInt64(channel))
        let fundamental = 500.0 + 7.0 * Double(channel)
        let offset = channel.isMultiple(of: 2) ? 9.81 : -0.35
        return (0..<count).map { n in
            let t = Double(n) / sampleRate
            var x = offset
            for harmonic in 1...5 {
                x += sin(2 * .pi * fundamental * Double(harmonic) * t) / Double(harmonic * harmonic)
            }
            x += 0.2 * sin(2 * .pi * 3_200 * t)
            x += 0.05 * noise.next()
            return x
        }
    }

    /// `frames` interleaved frames of `channels` channels.
    public static func interleaved(channels: Int, frames: Int, sampleRate: Double = Workload.sampleRate) -> [Double] {
        let columns = (0..<channels).map { channel($0, count: frames, sampleRate: sampleRate) }
        var samples = [Double](repeating: 0, count: channels * frames)
        for frame in 0..<frames {
            for c in 0..<channels { samples[frame * channels + c] = columns[c][frame] }
        }
        return samples
    }
}

/// xorshift64*: uniform values in [-1, 1) from a fixed seed.
struct NoiseGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = (state &* 0x2545_F491_4F6C_DD1D) >> 11
        return Double(bits) / Double(1 << 52) - 1
    }
}
