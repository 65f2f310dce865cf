import Foundation

/// The analysis filters of Antoni's fast kurtogram and the kernels that run them.
///
/// Complex samples are `SIMD2<Double>` (re, im). A node of the tree is its parent filtered
/// (causal FIR, zero state, as `lfilter`) and decimated; only the kept outputs are computed,
/// so every level costs about the same as the first and the whole tree O(N · levels).
enum KurtogramFilterBank {
    /// Samples at the start of every filtered node left out of its kurtosis and band signal:
    /// the binary prototype's order, past which no output touches the zero padding.
    static let warmUp = 16
    /// Band power at or below this fraction of the input's mean square is taken as no band (K = 0).
    static let silentFraction = 1e-20

    /// A tap stored as the two vectors a complex multiply-add needs: (re, re) and (-im, im).
    struct Tap {
        var real: SIMD2<Double>
        var imaginary: SIMD2<Double>

        init(_ re: Double, _ im: Double) {
            real = SIMD2(re, re)
            imaginary = SIMD2(-im, im)
        }
    }

    /// `scipy.signal.firwin(count, cutoff)`: Hamming-windowed sinc, cutoff as a fraction of
    /// Nyquist, scaled to unit gain at DC (MATLAB's `fir1(count - 1, cutoff)`).
    static func windowedSinc(count: Int, cutoff: Double) -> [Double] {
        let centre = Double(count - 1) / 2
        var taps = (0..<count).map { n -> Double in
            let m = Double(n) - centre
            let x = cutoff * m
            let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
            let window = 0.54 - 0.46 * cos(2 * Double.pi * Double(n) / Double(count - 1))
            return cutoff * sinc * window
        }
        let sum = taps.reduce(0, +)
        for index in taps.indices {
            taps[index] /= sum
        }
        return taps
    }

    /// `w · exp(2πi·n·cycles)`, n = 0, 1, ...: a real prototype shifted by `cycles` of the rate.
    static func modulated(_ w: [Double], cycles: Double) -> [(re: Double, im: Double)] {
        w.indices.map { n in
            let angle = 2 * Double.pi * Double(n) * cycles
            return (w[n] * cos(angle), w[n] * sin(angle))
        }
    }

    /// h: 17 taps, `fir1(16, 0.4)` shifted by fs/8 (passes the lower half, 0...fs/4).
    static let lowHalf: [(re: Double, im: Double)] = modulated(windowedSinc(count: 17, cutoff: 0.4), cycles: 0.125)
    /// g[k] = (-1)^(k+1) · h[15 - k], k = 0...15 (passes the upper half, fs/4...fs/2), as Antoni's code.
    static let highHalf: [(re: Double, im: Double)] = (0..<16).map { k in
        let sign: Double = k % 2 == 0 ? -1 : 1
        return (sign * lowHalf[15 - k].re, sign * lowHalf[15 - k].im)
    }
    /// h1, h2, h3: 25 taps, `fir1(24, 2/3 · 0.4)` shifted by fs/12, 3fs/12, 5fs/12 (the thirds).
    static let thirds: [[(re: Double, im: Double)]] = {
        let w = windowedSinc(count: 25, cutoff: 2.0 / 3.0 * 0.4)
        return [
            modulated(w, cycles: 0.25 / 3),
            modulated(w, cycles: 0.25 / 3 + 1.0 / 6),
            modulated(w, cycles: 0.25 / 3 + 1.0 / 3),
        ]
    }()

    /// The binary split of a node of `count` samples into `low` and `high`, `count / 2` each:
    /// low[m] = (h ∗ z)[2m + 1], high[m] = (-1)^(m+1) · (g ∗ z)[2m + 1].
    static func splitInHalves(
        _ z: UnsafePointer<SIMD2<Double>>, count: Int, low: UnsafeMutablePointer<SIMD2<Double>>,
        high: UnsafeMutablePointer<SIMD2<Double>>, taps: UnsafePointer<Tap>
    ) {
        // taps[0..<17] is h, taps[17..<33] is g.
        let outputs = count / 2
        // Outputs whose window reaches before the first sample: the general (bounded) loop.
        let firstFull = min(outputs, 8)
        for m in 0..<firstFull {
            let n = 2 * m + 1
            var a = SIMD2<Double>.zero
            var d = SIMD2<Double>.zero
            for k in 0...min(n, 16) {
                let x = z[n - k]
                let swapped = SIMD2(x.y, x.x)
                a += taps[k].real * x + taps[k].imaginary * swapped
                if k < 16 {
                    d += taps[17 + k].real * x + taps[17 + k].imaginary * swapped
                }
            }
            low[m] = a
            high[m] = m % 2 == 0 ? -d : d
        }
        guard firstFull < outputs else { return }
        for m in firstFull..<outputs {
            let window = z + (2 * m + 1)
            var a = SIMD2<Double>.zero
            var d = SIMD2<Double>.zero
            // h[16 - k] = conj(h[k]): h·x + conj(h)·y = Re h·(x + y) + i·Im h·(x - y), half
            // the multiplies (g has no such symmetry: Antoni's g drops h[16]).
            for k in 0..<8 {
                let x = window[-k]
                let y = window[k - 16]
                let sum = x + y
                let difference = x - y
                a += taps[k].real * sum + taps[k].imaginary * SIMD2(difference.y, difference.x)
            }
            let centre = window[-8]
            a += taps[8].real * centre + taps[8].imaginary * SIMD2(centre.y, centre.x)
            for k in 0..<16 {
                let x = window[-k]
                d += taps[17 + k].real * x + taps[17 + k].imaginary * SIMD2(x.y, x.x)
            }
            low[m] = a
            high[m] = m % 2 == 0 ? -d : d
        }
    }

    /// The ternary split of a node of `count` samples into three of `count / 3`:
    /// out_b[m] = (h_b ∗ z)[3m + 2], b = 0, 1, 2 (h1, h2, h3 of `taps`, 25 each).
    static func splitInThirds(
        _ z: UnsafePointer<SIMD2<Double>>, count: Int, into outputs: UnsafeMutablePointer<SIMD2<Double>>,
        stride: Int, taps: UnsafePointer<Tap>
    ) {
        let outputCount = count / 3
        let first = outputs
        let second = outputs + stride
        let third = outputs + 2 * stride
        let firstFull = min(outputCount, 8)
        for m in 0..<firstFull {
            let n = 3 * m + 2
            var s0 = SIMD2<Double>.zero
            var s1 = SIMD2<Double>.zero
            var s2 = SIMD2<Double>.zero
            for k in 0...min(n, 24) {
                let x = z[n - k]
                let swapped = SIMD2(x.y, x.x)
                s0 += taps[k].real * x + taps[k].imaginary * swapped
                s1 += taps[25 + k].real * x + taps[25 + k].imaginary * swapped
                s2 += taps[50 + k].real * x + taps[50 + k].imaginary * swapped
            }
            first[m] = s0
            second[m] = s1
            third[m] = s2
        }
        guard firstFull < outputCount else { return }
        for m in firstFull..<outputCount {
            let window = z + (3 * m + 2)
            var s0 = SIMD2<Double>.zero
            var s1 = SIMD2<Double>.zero
            var s2 = SIMD2<Double>.zero
            // h_b[24 - k] = conj(h_b[k]): the sum and difference of the pair serve all three
            // bands (the 60 s, 7-level kurtogram: 0.89-1.00 -> 0.59-0.60 s, back to back).
            for k in 0..<12 {
                let x = window[-k]
                let y = window[k - 24]
                let sum = x + y
                let difference = x - y
                let swapped = SIMD2(difference.y, difference.x)
                s0 += taps[k].real * sum + taps[k].imaginary * swapped
                s1 += taps[25 + k].real * sum + taps[25 + k].imaginary * swapped
                s2 += taps[50 + k].real * sum + taps[50 + k].imaginary * swapped
            }
            let x = window[-12]
            let swapped = SIMD2(x.y, x.x)
            s0 += taps[12].real * x + taps[12].imaginary * swapped
            s1 += taps[37].real * x + taps[37].imaginary * swapped
            s2 += taps[62].real * x + taps[62].imaginary * swapped
            first[m] = s0
            second[m] = s1
            third[m] = s2
        }
    }

    /// Kurtosis of a complex band: c = z - mean(z), E = mean|c|², K = mean|c|⁴ / E² - 2;
    /// 0 when E ≤ `floor`.
    static func complexKurtosis(_ z: UnsafePointer<SIMD2<Double>>, count: Int, floor: Double) -> Double {
        var sum = SIMD2<Double>.zero
        for i in 0..<count {
            sum += z[i]
        }
        let mean = sum / Double(count)
        var second = 0.0
        var fourth = 0.0
        for i in 0..<count {
            let c = z[i] - mean
            let power = c.x * c.x + c.y * c.y
            second += power
            fourth += power * power
        }
        let energy = second / Double(count)
        guard energy > floor else { return 0 }
        return fourth / Double(count) / (energy * energy) - 2
    }

    /// Kurtosis of the real input (level 0): d = x - mean(x), K = mean d⁴ / (mean d²)² - 3;
    /// 0 when mean d² ≤ `floor`.
    static func realKurtosis(_ x: UnsafeBufferPointer<Double>, floor: Double) -> Double {
        var sum = 0.0
        for value in x {
            sum += value
        }
        let mean = sum / Double(x.count)
        var second = 0.0
        var fourth = 0.0
        for value in x {
            let d = value - mean
            let square = d * d
            second += square
            fourth += square * square
        }
        let energy = second / Double(x.count)
        guard energy > floor else { return 0 }
        return fourth / Double(x.count) / (energy * energy) - 3
    }

    /// All taps in kernel order: h, g, h1, h2, h3.
    static let allTaps: [Tap] = (lowHalf + highHalf + thirds[0] + thirds[1] + thirds[2]).map { Tap($0.re, $0.im) }
    /// Where h1 starts in `allTaps`.
    static let thirdsOffset = 33
}
