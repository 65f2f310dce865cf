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
        /// The same, twice: for two outputs at once.
        var real4: SIMD4<Double>
        var imaginary4: SIMD4<Double>

        init(_ re: Double, _ im: Double) {
            real = SIMD2(re, re)
            imaginary = SIMD2(-im, im)
            real4 = SIMD4(lowHalf: real, highHalf: real)
            imaginary4 = SIMD4(lowHalf: imaginary, highHalf: imaginary)
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
        // Two outputs at once, one per half of a 4-wide vector: each keeps its own sums in the
        // order below (the same bits), and AVX does both in the time of one.
        var m = firstFull
        while m + 1 < outputs {
            let window = z + (2 * m + 1)
            var a = SIMD4<Double>.zero
            var d = SIMD4<Double>.zero
            for k in 0..<8 {
                let x = SIMD4(lowHalf: window[-k], highHalf: window[2 - k])
                let y = SIMD4(lowHalf: window[k - 16], highHalf: window[k - 14])
                let sum = x + y
                let difference = x - y
                a += taps[k].real4 * sum + taps[k].imaginary4 * difference.swapped
            }
            let centre = SIMD4(lowHalf: window[-8], highHalf: window[-6])
            a += taps[8].real4 * centre + taps[8].imaginary4 * centre.swapped
            for k in 0..<16 {
                let x = SIMD4(lowHalf: window[-k], highHalf: window[2 - k])
                d += taps[17 + k].real4 * x + taps[17 + k].imaginary4 * x.swapped
            }
            low[m] = a.lowHalf
            low[m + 1] = a.highHalf
            // m even: high[m] = -d, high[m + 1] = d; m odd: the other way round.
            high[m] = m % 2 == 0 ? -d.lowHalf : d.lowHalf
            high[m + 1] = m % 2 == 0 ? d.highHalf : -d.highHalf
            m += 2
        }
        if m < outputs {
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
        // Two outputs at once, as `splitInHalves`.
        var m = firstFull
        while m + 1 < outputCount {
            let window = z + (3 * m + 2)
            var s0 = SIMD4<Double>.zero
            var s1 = SIMD4<Double>.zero
            var s2 = SIMD4<Double>.zero
            for k in 0..<12 {
                let x = SIMD4(lowHalf: window[-k], highHalf: window[3 - k])
                let y = SIMD4(lowHalf: window[k - 24], highHalf: window[k - 21])
                let sum = x + y
                let swapped = (x - y).swapped
                s0 += taps[k].real4 * sum + taps[k].imaginary4 * swapped
                s1 += taps[25 + k].real4 * sum + taps[25 + k].imaginary4 * swapped
                s2 += taps[50 + k].real4 * sum + taps[50 + k].imaginary4 * swapped
            }
            let x = SIMD4(lowHalf: window[-12], highHalf: window[-9])
            let swapped = x.swapped
            s0 += taps[12].real4 * x + taps[12].imaginary4 * swapped
            s1 += taps[37].real4 * x + taps[37].imaginary4 * swapped
            s2 += taps[62].real4 * x + taps[62].imaginary4 * swapped
            first[m] = s0.lowHalf
            first[m + 1] = s0.highHalf
            second[m] = s1.lowHalf
            second[m + 1] = s1.highHalf
            third[m] = s2.lowHalf
            third[m + 1] = s2.highHalf
            m += 2
        }
        if m < outputCount {
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
        return excessKurtosis(second: second, fourth: fourth, count: count, floor: floor)
    }

    /// `complexKurtosis` of two bands of `count` samples at once, each with its own sums in
    /// the same order (the same bits): the sums are latency-bound, and two independent chains
    /// run in the time of one.
    static func complexKurtosis(
        _ a: UnsafePointer<SIMD2<Double>>, _ b: UnsafePointer<SIMD2<Double>>, count: Int, floor: Double
    ) -> (Double, Double) {
        var sumA = SIMD2<Double>.zero
        var sumB = SIMD2<Double>.zero
        for i in 0..<count {
            sumA += a[i]
            sumB += b[i]
        }
        let meanA = sumA / Double(count)
        let meanB = sumB / Double(count)
        var second = SIMD2<Double>.zero
        var fourth = SIMD2<Double>.zero
        for i in 0..<count {
            let ca = a[i] - meanA
            let cb = b[i] - meanB
            let power = SIMD2(ca.x * ca.x + ca.y * ca.y, cb.x * cb.x + cb.y * cb.y)
            second += power
            fourth += power * power
        }
        return (
            excessKurtosis(second: second.x, fourth: fourth.x, count: count, floor: floor),
            excessKurtosis(second: second.y, fourth: fourth.y, count: count, floor: floor)
        )
    }

    /// `complexKurtosis` of three bands of `count` samples at once (a node's thirds), as the
    /// two-band one.
    static func complexKurtosis(
        _ a: UnsafePointer<SIMD2<Double>>, _ b: UnsafePointer<SIMD2<Double>>, _ c: UnsafePointer<SIMD2<Double>>,
        count: Int, floor: Double
    ) -> (Double, Double, Double) {
        var sumA = SIMD2<Double>.zero
        var sumB = SIMD2<Double>.zero
        var sumC = SIMD2<Double>.zero
        for i in 0..<count {
            sumA += a[i]
            sumB += b[i]
            sumC += c[i]
        }
        let meanA = sumA / Double(count)
        let meanB = sumB / Double(count)
        let meanC = sumC / Double(count)
        var second = SIMD4<Double>.zero
        var fourth = SIMD4<Double>.zero
        for i in 0..<count {
            let ca = a[i] - meanA
            let cb = b[i] - meanB
            let cc = c[i] - meanC
            let power = SIMD4(ca.x * ca.x + ca.y * ca.y, cb.x * cb.x + cb.y * cb.y, cc.x * cc.x + cc.y * cc.y, 0)
            second += power
            fourth += power * power
        }
        return (
            excessKurtosis(second: second.x, fourth: fourth.x, count: count, floor: floor),
            excessKurtosis(second: second.y, fourth: fourth.y, count: count, floor: floor),
            excessKurtosis(second: second.z, fourth: fourth.z, count: count, floor: floor)
        )
    }

    /// mean|c|⁴ / E² - 2 from the sums of |c|² and |c|⁴; 0 when E ≤ `floor`.
    private static func excessKurtosis(second: Double, fourth: Double, count: Int, floor: Double) -> Double {
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

extension SIMD4<Double> {
    /// Two complex numbers with re and im exchanged: (y, x, w, z), for i·c as one multiply.
    fileprivate var swapped: SIMD4<Double> { SIMD4(y, x, w, z) }
}
