import Foundation

/// The per-frame loops of `FeatureExtractor`, written over four SIMD lanes.
///
/// Why by hand: without fast-math the compiler may not reorder floating-point sums, so a
/// plain `for` loop runs one dependent add per sample. Four independent lanes summed at
/// the end change the rounding order only (results stay within ~1e-15 relative, far
/// inside FEATURES.md's tolerances) and are deterministic. Frame lengths are powers of two
/// of at least 16, so the frame loops need no tail; the spectrum (N/2 + 1 bins) and the
/// range sums handle their own.
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
}

extension FrameKernels {
    /// What one pass over the spectrum gathers for the spectral features.
    struct SpectrumSums {
        /// Σ|X|
        var magnitude = 0.0
        /// Σ k·|X|
        var weightedBins = 0.0
        /// Σ|X|²
        var energy = 0.0
        /// Σ max(|X|², 1e-10)
        var q = 0.0
        /// Σ ln max(|X|², 1e-10)
        var logQ = 0.0
        /// Σ |X|²·ln|X|² (0 for empty bins)
        var energyLog = 0.0
        /// argmax of P over bins 2...N/2, the lowest on ties.
        var peakBin = 2
    }

    /// From FFTW's `bins` interleaved complex values: |X|², |X| and the one-sided PSD P
    /// per bin, and every sum the spectral features share.
    ///
    /// Why so few passes: as separate loops (squares, roots and P; logarithms; sums; peak
    /// search) the spectrum was read and written five times per frame, and the scalar loops
    /// among them did not vectorise. Now one pass does everything but the logarithms, and a
    /// second one those. `bins` is N/2 + 1 with N a power of two of at least 16: the
    /// N/2 bins below Nyquist are whole blocks of four, and Nyquist is done on its own.
    /// - Parameter powerScale: `1 / (fs·Σw²)`; P is twice that times |X|² except at DC and Nyquist.
    static func spectrum(
        _ complex: UnsafePointer<Double>, bins: Int, powerScale: Double,
        squared: UnsafeMutablePointer<Double>, magnitude: UnsafeMutablePointer<Double>, power: UnsafeMutablePointer<Double>
    ) -> SpectrumSums {
        let nyquist = bins - 1
        var sumS = Lanes(repeating: 0), sumKS = Lanes(repeating: 0), sumE = Lanes(repeating: 0)
        var sumQ = Lanes(repeating: 0), sumLogQ = Lanes(repeating: 0), sumEL = Lanes(repeating: 0)
        let floor = Lanes(repeating: 1e-10)
        let logFloor = Lanes(repeating: Foundation.log(1e-10))
        let zero = Lanes(repeating: 0)
        let interior = Lanes(repeating: 2 * powerScale)
        var bin = Lanes(0, 1, 2, 3)
        let four = Lanes(repeating: 4)
        // Per-lane running argmax; bins 0 and 1 (the window's DC leakage) never compete.
        var best = Lanes(repeating: -1)
        var bestBin = SIMD4<Int64>(0, 1, 2, 3)
        var binIndex = SIMD4<Int64>(0, 1, 2, 3)
        var k = 0
        while k < nyquist {
            let pairs = SIMD8(lowHalf: load(complex, 2 * k), highHalf: load(complex, 2 * k + 4))
            let products = pairs * pairs
            let s2 = products.evenHalf + products.oddHalf  // re² + im², as a scalar loop rounds it
            let s = s2.squareRoot()
            let p = s2 * interior
            store(s2, squared, k)
            store(s, magnitude, k)
            store(p, power, k)
            var candidate = p
            if k == 0 {
                candidate[0] = -1
                candidate[1] = -1
            }
            let better = candidate .> best
            best.replace(with: candidate, where: better)
            bestBin.replace(with: binIndex, where: better)
            sumS += s
            sumKS += bin * s
            sumE += s2
            sumQ += s2.replacing(with: floor, where: s2 .< floor)
            bin += four
            binIndex &+= 4
            k += 4
        }
        // The logarithms in a loop of their own over |X|² (still in L1): inside the loop
        // above, register pressure made the compiler split the polynomial into scalar
        // operations (perf annotate).
        k = 0
        while k < nyquist {
            let s2 = load(squared, k)
            let l = logarithm(s2)
            sumLogQ += l.replacing(with: logFloor, where: l .< logFloor)
            sumEL += (s2 * l).replacing(with: zero, where: s2 .<= zero)
            k += 4
        }
        // DC and Nyquist are not doubled in a one-sided spectrum.
        power[0] = squared[0] * powerScale
        let re = complex[2 * nyquist], im = complex[2 * nyquist + 1]
        let s2 = re * re + im * im
        let s = s2.squareRoot()
        squared[nyquist] = s2
        magnitude[nyquist] = s
        power[nyquist] = s2 * powerScale
        let l = scalarLogarithm(s2)

        var sums = SpectrumSums()
        sums.magnitude = sumS.sum() + s
        sums.weightedBins = sumKS.sum() + Double(nyquist) * s
        sums.energy = sumE.sum() + s2
        sums.q = sumQ.sum() + Swift.max(s2, 1e-10)
        sums.logQ = sumLogQ.sum() + Swift.max(l, logFloor[0])
        sums.energyLog = sumEL.sum() + (s2 > 0 ? s2 * l : 0)
        // Lanes hold the best of bins ≡ lane (mod 4); the lowest bin wins a tie, as in a scan.
        var peak = 2
        var peakPower = -1.0
        for lane in 0..<4 where best[lane] > peakPower || (best[lane] == peakPower && Int(bestBin[lane]) < peak) {
            peak = Int(bestBin[lane])
            peakPower = best[lane]
        }
        if power[nyquist] > peakPower { peak = nyquist }
        sums.peakBin = peak
        return sums
    }

    /// Natural logarithms of four non-negative values; 0 gives -∞.
    ///
    /// Why not libm: one `log` call per spectral bin was the largest single cost of a
    /// frame (perf: 9% of a whole run). This is fdlibm's `__ieee754_log` (error below
    /// 1 ulp) over four lanes: x = 2^k·(1+f) with 1+f in [√½, √2), s = f/(2+f), and
    /// ln(1+f) = f - (f²/2 - s·(f²/2 + R(s²))) with fdlibm's degree-14 minimax R, whose
    /// error is below 2^-58.45: seven Horner steps where the Taylor series of atanh used
    /// before needed nine for 3e-16 (the loop is latency-bound: perf put 60% of the
    /// spectrum pass on it). fdlibm splits R into two halves in s⁴ for a shorter chain;
    /// written so, the compiler turned part of it into scalar code (perf annotate), and
    /// the run got slower. Zero and subnormal inputs (below 2.2e-308) take libm's path.
    ///
    /// The constants are fdlibm's (e_log.c): Copyright (C) 1993 by Sun Microsystems, Inc.
    /// All rights reserved. Developed at SunSoft, a Sun Microsystems, Inc. business.
    /// Permission to use, copy, modify, and distribute this software is freely granted,
    /// provided that this notice is preserved.
    @inline(__always)
    static func logarithm(_ v: Lanes) -> Lanes {
        if any(v .< Lanes(repeating: Double.leastNormalMagnitude)) {
            return Lanes(scalarLogarithm(v[0]), scalarLogarithm(v[1]), scalarLogarithm(v[2]), scalarLogarithm(v[3]))
        }
        let one = Lanes(repeating: 1), two = Lanes(repeating: 2), half = Lanes(repeating: 0.5)
        let ln2High = Lanes(repeating: 6.931_471_803_691_238_164_90e-01)  // 0x3FE62E42FEE00000
        let ln2Low = Lanes(repeating: 1.908_214_929_270_587_700_02e-10)  // 0x3DEA39EF35793C76
        let bits = unsafeBitCast(v, to: SIMD4<UInt64>.self)
        // The biased exponent as a Double without an integer conversion (SSE2 has no packed
        // Int64 → Double, so that was four scalar ones): placed in the mantissa of 2^52,
        // then 2^52 and the bias taken off, exactly.
        let biased = unsafeBitCast((bits &>> SIMD4(repeating: 52)) | SIMD4(repeating: 0x4330_0000_0000_0000), to: Lanes.self)
        var k = biased - Lanes(repeating: 4_503_599_627_370_496.0 + 1023)
        // The mantissa with the exponent of 1: m in [1, 2).
        var m = unsafeBitCast((bits & SIMD4(repeating: 0x000F_FFFF_FFFF_FFFF)) | SIMD4(repeating: 0x3FF0_0000_0000_0000), to: Lanes.self)
        // Move m into [√½, √2): halve it and count one more power of two.
        let high = m .> Lanes(repeating: 1.414_213_562_373_095_048_8)
        m.replace(with: m * half, where: high)
        k.replace(with: k + one, where: high)
        let f = m - one
        let s = f / (f + two)
        let z = s * s
        // fdlibm's R(z) = Lg1·z + ... + Lg7·z⁷, by Horner's rule in z.
        var r = Lanes(repeating: 1.479_819_860_511_658_591e-01)
        r = r * z + Lanes(repeating: 1.531_383_769_920_937_332e-01)
        r = r * z + Lanes(repeating: 1.818_357_216_161_805_012e-01)
        r = r * z + Lanes(repeating: 2.222_219_843_214_978_396e-01)
        r = r * z + Lanes(repeating: 2.857_142_874_366_239_149e-01)
        r = r * z + Lanes(repeating: 3.999_999_999_940_941_908e-01)
        r = r * z + Lanes(repeating: 6.666_666_666_666_735_130e-01)
        r = r * z
        let halfSquare = half * f * f
        return k * ln2High - ((halfSquare - (s * (halfSquare + r) + k * ln2Low)) - f)
    }

    @inline(never)
    static func scalarLogarithm(_ value: Double) -> Double {
        value == 0 ? -.infinity : Foundation.log(value)
    }

    /// Σ values[range], four lanes at a time (bands and the SNR's noise bins).
    static func sum(_ values: UnsafePointer<Double>, _ range: Range<Int>) -> Double {
        var lanes = Lanes(repeating: 0)
        var k = range.lowerBound
        while k + 4 <= range.upperBound {
            lanes += load(values, k)
            k += 4
        }
        var total = lanes.sum()
        while k < range.upperBound {
            total += values[k]
            k += 1
        }
        return total
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
