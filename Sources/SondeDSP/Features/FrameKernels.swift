import Foundation

/// The per-frame loops of `FeatureExtractor`, written over four SIMD lanes.
///
/// Why by hand: without fast-math the compiler may not reorder floating-point sums, so a
/// plain `for` loop runs one dependent add per sample. Four independent lanes summed at
/// the end change the rounding order only (results stay within ~1e-15 relative, far
/// inside FEATURES.md's tolerances) and are deterministic. Every `count` here is a
/// multiple of 4: frame lengths are powers of two of at least 16.
enum FrameKernels {
    typealias Lanes = SIMD4<Double>

    @inline(__always)
    static func load(_ base: UnsafePointer<Double>, _ index: Int) -> Lanes {
        UnsafeRawPointer(base + index).loadUnaligned(as: Lanes.self)
    }

    @inline(__always)
    static func store(_ value: Lanes, _ base: UnsafeMutablePointer<Double>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(of: value, as: Lanes.self)
    }

    /// Σx, Σx², min, max and the number of sign changes `(x[n-1] >= 0) != (x[n] >= 0)`.
    static func timeDomainSums(_ x: UnsafePointer<Double>, count: Int) -> (sum: Double, sumOfSquares: Double, minimum: Double, maximum: Double, crossings: Int) {
        var sum = Lanes(repeating: 0)
        var squares = Lanes(repeating: 0)
        var minimum = Lanes(repeating: x[0])
        var maximum = Lanes(repeating: x[0])
        var crossings = SIMD4<Int64>(repeating: 0)
        let zero = Lanes(repeating: 0)
        // The first lane of the first block compares x[0] with itself: no crossing.
        var previous = Lanes(x[0], x[0], x[1], x[2])
        var i = 0
        while i < count {
            let v = load(x, i)
            sum += v
            squares += v * v
            // Lane-wise select rather than pointwiseMin/Max, which perf showed as an
            // out-of-line call per iteration.
            minimum.replace(with: v, where: v .< minimum)
            maximum.replace(with: v, where: v .> maximum)
            let changed = (v .>= zero) .^ (previous .>= zero)
            crossings &+= SIMD4<Int64>(repeating: 0).replacing(with: 1, where: changed)
            i += 4
            if i < count { previous = load(x, i - 1) }
        }
        return (sum.sum(), squares.sum(), minimum.min(), maximum.max(), Int(crossings.wrappedSum()))
    }

    /// Power sums Σd, Σd², Σd³, Σd⁴ of `d = (x - center) * scale`, and, in the same pass,
    /// the windowed frame `x * w` for the FFT.
    static func momentsAndWindow(
        _ x: UnsafePointer<Double>, center: Double, scale: Double, window: UnsafePointer<Double>,
        windowed: UnsafeMutablePointer<Double>, count: Int
    ) -> (s1: Double, s2: Double, s3: Double, s4: Double) {
        var s1 = Lanes(repeating: 0)
        var s2 = Lanes(repeating: 0)
        var s3 = Lanes(repeating: 0)
        var s4 = Lanes(repeating: 0)
        let c = Lanes(repeating: center)
        let k = Lanes(repeating: scale)
        var i = 0
        while i < count {
            let v = load(x, i)
            store(v * load(window, i), windowed, i)
            let d = (v - c) * k
            let d2 = d * d
            s1 += d
            s2 += d2
            s3 += d2 * d
            s4 += d2 * d2
            i += 4
        }
        return (s1.sum(), s2.sum(), s3.sum(), s4.sum())
    }

    /// |X[k]|² from FFTW's interleaved complex bins, `bins` of them (the last odd one too).
    static func squaredMagnitudes(_ complex: UnsafePointer<Double>, into squared: UnsafeMutablePointer<Double>, bins: Int) {
        var k = 0
        while k + 2 <= bins {
            let v = load(complex, 2 * k)  // re[k], im[k], re[k+1], im[k+1]
            let p = v * v
            let s = p.evenHalf + p.oddHalf
            squared[k] = s[0]
            squared[k + 1] = s[1]
            k += 2
        }
        while k < bins {
            let re = complex[2 * k], im = complex[2 * k + 1]
            squared[k] = re * re + im * im
            k += 1
        }
    }
}

extension FrameKernels {
    /// Natural logarithms of `count` non-negative values, four at a time; 0 gives -∞.
    ///
    /// Why not libm: one `log` call per spectral bin was the largest single cost of a
    /// frame (perf: 9% of a whole run). Here x = m·2^e with m in [√½, √2), and
    /// ln m = 2·atanh(s), s = (m-1)/(m+1), |s| ≤ 0.172, summed to s²¹: relative error
    /// below 4e-16, far inside what flatness and entropy need. Subnormal inputs (below
    /// 2.2e-308) take libm's path.
    static func logarithms(_ x: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>, count: Int) {
        let mantissaMask = SIMD4<UInt64>(repeating: 0x000F_FFFF_FFFF_FFFF)
        let exponentOfOne = SIMD4<UInt64>(repeating: 0x3FF0_0000_0000_0000)
        let one = Lanes(repeating: 1)
        let ln2High = Lanes(repeating: 0.693_147_180_369_123_816_49)  // ln 2, top 32 bits
        let ln2Low = Lanes(repeating: 1.908_214_929_270_587_7e-10)  // the rest
        let smallestNormal = Lanes(repeating: Double.leastNormalMagnitude)
        var i = 0
        while i + 4 <= count {
            let v = load(x, i)
            if any(v .< smallestNormal) {
                for lane in 0..<4 { result[i + lane] = scalarLogarithm(v[lane]) }
                i += 4
                continue
            }
            let bits = unsafeBitCast(v, to: SIMD4<UInt64>.self)
            var exponent = Lanes(SIMD4<Int64>(truncatingIfNeeded: bits &>> 52) &- 1023)
            var m = unsafeBitCast((bits & mantissaMask) | exponentOfOne, to: Lanes.self)  // [1, 2)
            // Move m into [√½, √2): halve it and count one more power of two.
            let high = m .> Lanes(repeating: 1.414_213_562_373_095_048_8)
            m.replace(with: m * 0.5, where: high)
            exponent.replace(with: exponent + 1, where: high)
            let s = (m - one) / (m + one)
            let s2 = s * s
            var series = Lanes(repeating: 1.0 / 21)
            series = series * s2 + 1.0 / 19
            series = series * s2 + 1.0 / 17
            series = series * s2 + 1.0 / 15
            series = series * s2 + 1.0 / 13
            series = series * s2 + 1.0 / 11
            series = series * s2 + 1.0 / 9
            series = series * s2 + 1.0 / 7
            series = series * s2 + 1.0 / 5
            series = series * s2 + 1.0 / 3
            series = series * s2 + one
            let logM = 2 * s * series
            store(exponent * ln2High + (logM + exponent * ln2Low), result, i)
            i += 4
        }
        while i < count {
            result[i] = scalarLogarithm(x[i])
            i += 1
        }
    }

    @inline(never)
    static func scalarLogarithm(_ value: Double) -> Double {
        value == 0 ? -.infinity : Foundation.log(value)
    }
}

extension FrameKernels {
    /// The sums the spectral features share, in one pass over the bins: Σ|X|, Σk·|X|,
    /// Σ|X|², Σ max(|X|², 1e-10), Σ max(ln|X|², ln 1e-10) and Σ |X|²·ln|X|² (0 for empty bins).
    static func spectralSums(
        squared: UnsafePointer<Double>, magnitude: UnsafePointer<Double>, logs: UnsafePointer<Double>, count: Int
    ) -> (magnitude: Double, weightedBins: Double, energy: Double, q: Double, logQ: Double, energyLog: Double) {
        var sumS = Lanes(repeating: 0), sumKS = Lanes(repeating: 0), sumE = Lanes(repeating: 0)
        var sumQ = Lanes(repeating: 0), sumLogQ = Lanes(repeating: 0), sumEL = Lanes(repeating: 0)
        let floor = Lanes(repeating: 1e-10)
        let logFloor = Lanes(repeating: Foundation.log(1e-10))
        let zero = Lanes(repeating: 0)
        var bins = Lanes(0, 1, 2, 3)
        let four = Lanes(repeating: 4)
        var k = 0
        while k + 4 <= count {
            let s2 = load(squared, k), s = load(magnitude, k), l = load(logs, k)
            sumS += s
            sumKS += bins * s
            sumE += s2
            var q = s2
            q.replace(with: floor, where: s2 .< floor)
            sumQ += q
            var lq = l
            lq.replace(with: logFloor, where: l .< logFloor)
            sumLogQ += lq
            var el = s2 * l
            el.replace(with: zero, where: s2 .<= zero)
            sumEL += el
            bins += four
            k += 4
        }
        var tail = (s: 0.0, ks: 0.0, e: 0.0, q: 0.0, lq: 0.0, el: 0.0)
        while k < count {
            let s2 = squared[k], s = magnitude[k], l = logs[k]
            tail.s += s
            tail.ks += Double(k) * s
            tail.e += s2
            tail.q += Swift.max(s2, 1e-10)
            tail.lq += Swift.max(l, logFloor[0])
            if s2 > 0 { tail.el += s2 * l }
            k += 1
        }
        return (sumS.sum() + tail.s, sumKS.sum() + tail.ks, sumE.sum() + tail.e, sumQ.sum() + tail.q, sumLogQ.sum() + tail.lq, sumEL.sum() + tail.el)
    }

    /// Σ |X[k]| (k·df - centroid)², for the bandwidth.
    static func spread(magnitude: UnsafePointer<Double>, count: Int, binWidth: Double, centroid: Double) -> Double {
        var sum = Lanes(repeating: 0)
        var frequency = Lanes(0, 1, 2, 3) * binWidth
        let step = Lanes(repeating: 4 * binWidth)
        let c = Lanes(repeating: centroid)
        var k = 0
        while k + 4 <= count {
            let d = frequency - c
            sum += load(magnitude, k) * d * d
            frequency += step
            k += 4
        }
        var total = sum.sum()
        while k < count {
            let d = Double(k) * binWidth - centroid
            total += magnitude[k] * d * d
            k += 1
        }
        return total
    }
}
