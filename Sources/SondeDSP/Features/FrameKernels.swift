import CKernelSupport
import Foundation

/// The per-frame loops of `FeatureExtractor`, written over four SIMD lanes.
///
/// Why by hand: without fast-math the compiler may not reorder floating-point sums, so a
/// plain `for` loop runs one dependent add per sample. Four independent lanes summed at
/// the end change the rounding order only (results stay within ~1e-15 relative, far
/// inside docs/features.md's tolerances) and are deterministic. Where the CPU has FMA, a product
/// added into a lane is one fused operation (`multiplyAdd`), so the `make build` binary and
/// a portable build differ in the last bits; each is deterministic. Frame lengths are powers of two
/// of at least 16, so the frame loops (four or eight samples a step) need no tail; the spectrum (N/2 + 1 bins) and the
/// range sums handle their own.
enum FrameKernels {
    typealias Lanes = SIMD4<Double>

    @inline(__always)
    static func load(_ base: UnsafePointer<Double>, _ index: Int) -> Lanes {
        UnsafeRawPointer(base + index).loadUnaligned(as: Lanes.self)
    }

    /// a·b + c in one rounding where the CPU has FMA (the `make build` binary), else a
    /// multiply and an add. Not for the filter, which must round exactly as scipy does.
    ///
    /// Why: the spectrum and moment loops are limited by the floating-point ports, and a
    /// fused pair is one operation instead of two. The spectrum pass with its logarithms
    /// went from 2.72 to 2.36 ns per bin (release harness, L1-resident, best of 400).
    @inline(__always)
    static func multiplyAdd(_ a: Lanes, _ b: Lanes, _ c: Lanes) -> Lanes {
        sonde_multiply_add(a, b, c)
    }

    /// Whether the build has 16 registers that hold a `SIMD4<Double>` each, enough for
    /// `frameSums` to do a frame in one pass. A constant of the build: the kernel compiles
    /// to one of its loops.
    @inline(__always)
    static var hasWideRegisters: Bool { SONDE_WIDE_VECTOR_REGISTERS != 0 }

    @inline(__always)
    static func store(_ value: Lanes, _ base: UnsafeMutablePointer<Double>, _ index: Int) {
        UnsafeMutableRawPointer(base + index).storeBytes(of: value, as: Lanes.self)
    }

    /// What one pass over a frame gathers for the time-domain features.
    struct FrameSums {
        /// Σd, Σd², Σd³, Σd⁴ of the deviations `d = (x - center) * scale`
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var minimum = 0.0, maximum = 0.0
        /// Sign changes `(x[n-1] >= 0) != (x[n] >= 0)`
        var crossings = 0
    }

    /// Power sums of the deviations from `center`, scaled by `scale`, the extremes and the
    /// sign changes of a frame, and, in the same pass, the windowed frame `x * w` for the FFT.
    ///
    /// Why one pass: the frame arrives from the framer's core, so the first pass over it
    /// pays for bringing it into this core's cache, and two passes (Σx first, for a center,
    /// then the moments around it) cost that twice. The caller guesses the center instead
    /// and repeats the pass around the mean when the guess was poor (`FeatureExtractor`).
    /// Eight samples a step, one accumulator per sum fed by both blocks: the step is long
    /// enough that no sum's latency limits it, and more accumulators spilled registers
    /// (release harness, N = 1024, AVX2: 332 ns a frame, against 446 for the two passes).
    static func frameSums(
        _ x: UnsafePointer<Double>, center: Double, scale: Double, window: UnsafePointer<Double>,
        windowed: UnsafeMutablePointer<Double>, count: Int
    ) -> FrameSums {
        guard hasWideRegisters else {
            return frameSumsInTwoPasses(
                x, center: center, scale: scale, window: window, windowed: windowed, count: count)
        }
        var s1 = Lanes(repeating: 0), s2 = Lanes(repeating: 0), s3 = Lanes(repeating: 0), s4 = Lanes(repeating: 0)
        var extremes = Extremes(x)
        let c = Lanes(repeating: center)
        let k = Lanes(repeating: scale)
        var i = 0
        while i < count {
            let v = load(x, i), w = load(x, i + 4)
            store(v * load(window, i), windowed, i)
            store(w * load(window, i + 4), windowed, i + 4)
            let d = (v - c) * k, e = (w - c) * k
            let d2 = d * d, e2 = e * e
            s1 += d + e
            s2 += d2 + e2
            s3 += multiplyAdd(e2, e, d2 * d)
            s4 += multiplyAdd(e2, e2, d2 * d2)
            extremes.add(v, w)
            i += 8
        }
        return extremes.sums(s1: s1.sum(), s2: s2.sum(), s3: s3.sum(), s4: s4.sum())
    }

    /// `frameSums` for SSE's registers, which the one pass spilled (harness, portable
    /// build: 1140 ns a frame, against 410 in two passes).
    private static func frameSumsInTwoPasses(
        _ x: UnsafePointer<Double>, center: Double, scale: Double, window: UnsafePointer<Double>,
        windowed: UnsafeMutablePointer<Double>, count: Int
    ) -> FrameSums {
        var extremes = Extremes(x)
        var i = 0
        while i < count {
            extremes.add(load(x, i), load(x, i + 4))
            i += 8
        }
        var s1 = Lanes(repeating: 0), s2 = Lanes(repeating: 0), s3 = Lanes(repeating: 0), s4 = Lanes(repeating: 0)
        let c = Lanes(repeating: center)
        let k = Lanes(repeating: scale)
        i = 0
        while i < count {
            let v = load(x, i)
            store(v * load(window, i), windowed, i)
            let d = (v - c) * k
            let d2 = d * d
            s1 += d
            s2 += d2
            s3 = multiplyAdd(d2, d, s3)
            s4 = multiplyAdd(d2, d2, s4)
            i += 4
        }
        return extremes.sums(s1: s1.sum(), s2: s2.sum(), s3: s3.sum(), s4: s4.sum())
    }

    /// Running minimum, maximum and sign changes, eight samples at a time.
    private struct Extremes {
        var minimum: Lanes
        var maximum: Lanes
        var crossings = 0
        /// Whether the sample before the next block is >= 0 (x[0] itself at first, which
        /// makes no change).
        var previousBit: Int

        @inline(__always)
        init(_ x: UnsafePointer<Double>) {
            minimum = Lanes(repeating: x[0])
            maximum = minimum
            previousBit = x[0] >= 0 ? 1 : 0
        }

        @inline(__always)
        mutating func add(_ v: Lanes, _ w: Lanes) {
            minimum = sonde_lesser(sonde_lesser(v, w), minimum)
            maximum = sonde_greater(sonde_greater(v, w), maximum)
            let bits = Int(sonde_nonnegative_lanes(v)) | Int(sonde_nonnegative_lanes(w)) << 4
            // Bit j of bits ^ (bits << 1 | previous) is a change between samples j - 1 and j.
            crossings &+= ((bits ^ (bits << 1 | previousBit)) & 0xff).nonzeroBitCount
            previousBit = bits >> 7
        }

        @inline(__always)
        func sums(s1: Double, s2: Double, s3: Double, s4: Double) -> FrameSums {
            FrameSums(
                s1: s1, s2: s2, s3: s3, s4: s4, minimum: minimum.min(), maximum: maximum.max(), crossings: crossings)
        }
    }
}

extension FrameKernels {
    /// What one pass over the spectrum gathers for the spectral features.
    struct SpectrumSums {
        /// Σ|X|
        var magnitude = 0.0
        /// Σ k·|X|
        var weightedBins = 0.0
        /// Σ k²·|X|, for the bandwidth without a pass of its own
        var squareWeightedBins = 0.0
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
        squared: UnsafeMutablePointer<Double>, magnitude: UnsafeMutablePointer<Double>,
        power: UnsafeMutablePointer<Double>
    ) -> SpectrumSums {
        let nyquist = bins - 1
        var sumS = Lanes(repeating: 0), sumKS = Lanes(repeating: 0), sumKKS = Lanes(repeating: 0),
            sumE = Lanes(repeating: 0)
        var sumQ = Lanes(repeating: 0), sumLogQ = Lanes(repeating: 0), sumEL = Lanes(repeating: 0)
        let floor = Lanes(repeating: 1e-10)
        let logFloor = Lanes(repeating: Foundation.log(1e-10))
        let zero = Lanes(repeating: 0)
        let interior = Lanes(repeating: 2 * powerScale)
        // Per-lane running argmax; bins 0 and 1 (the window's DC leakage) never compete.
        // First block before the loop, bins as Doubles only: otherwise accumulators spill
        // (3.44 -> 2.95 ns per bin; docs/performance.md).
        var bin = Lanes(0, 1, 2, 3)
        let four = Lanes(repeating: 4)
        var smallest = Lanes(repeating: .infinity)
        @inline(__always)
        func block(_ k: Int) -> Lanes {
            let pairs = SIMD8(lowHalf: load(complex, 2 * k), highHalf: load(complex, 2 * k + 4))
            let products = pairs * pairs
            let s2 = products.evenHalf + products.oddHalf  // re² + im², as a scalar loop rounds it
            let s = s2.squareRoot()
            let p = s2 * interior
            store(s2, squared, k)
            store(s, magnitude, k)
            store(p, power, k)
            sumS += s
            let ks = bin * s
            sumKS += ks
            sumKKS = multiplyAdd(bin, ks, sumKKS)
            sumE += s2
            sumQ += s2.replacing(with: floor, where: s2 .< floor)
            smallest.replace(with: s2, where: s2 .< smallest)
            return p
        }
        var best = block(0)
        best[0] = -1
        best[1] = -1
        var bestBin = bin
        var k = 4
        while k < nyquist {
            bin += four
            let p = block(k)
            let better = p .> best
            best.replace(with: p, where: better)
            bestBin.replace(with: bin, where: better)
            k += 4
        }
        // The logarithms in a loop of their own (inside the one above they went scalar), and
        // two of them: frames without empty or subnormal bins skip the checks (one loop
        // choosing per block was 26% slower; docs/performance.md).
        k = 0
        if smallest.min() >= Double.leastNormalMagnitude {
            while k < nyquist {
                let s2 = load(squared, k)
                let l = normalLogarithm(s2)
                sumLogQ += l.replacing(with: logFloor, where: l .< logFloor)
                sumEL = multiplyAdd(s2, l, sumEL)
                k += 4
            }
        } else {
            while k < nyquist {
                let s2 = load(squared, k)
                let l = logarithm(s2)
                sumLogQ += l.replacing(with: logFloor, where: l .< logFloor)
                sumEL += (s2 * l).replacing(with: zero, where: s2 .<= zero)
                k += 4
            }
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
        sums.squareWeightedBins = sumKKS.sum() + Double(nyquist) * (Double(nyquist) * s)
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
    /// Why not libm: a `log` per bin was 9% of a whole run; a table lookup and a short
    /// series halve the dependency chain of fdlibm's division and Horner steps (2.5 instead
    /// of 3.45 ns per bin; the history is in docs/performance.md).
    ///
    /// The method is the one of ARM's optimized-routines and glibc (since 2.28) `log`:
    /// x = 2^k·z with z in [0.6875, 1.375), the top eight bits of z pick one of 256
    /// subintervals with centre c, and log x = k·ln 2 + ln c + log1p(r) with
    /// r = z·(1/c) - 1, |r| < 0.00195. The table is `make_logarithm_table.py`'s; log1p(r)
    /// is its Taylor series to r⁵ (the next term is below 1e-17). Near x = 1, ln c and
    /// log1p(r) cancel, so the error is absolute (about 1e-16), not relative: over 2·10^7
    /// random inputs it stayed within 2.3e-16·max(1, |log x|) of libm's with FMA (r in one
    /// rounding) and 4.5e-16 without. That is what the spectral sums need, as each
    /// logarithm enters them with an absolute weight; `FrameKernelsTests` checks 1e-15.
    /// Zero and subnormal inputs (below 2.2e-308) take libm's path.
    @inline(__always)
    static func logarithm(_ v: Lanes) -> Lanes {
        if any(v .< Lanes(repeating: Double.leastNormalMagnitude)) {
            return Lanes(scalarLogarithm(v[0]), scalarLogarithm(v[1]), scalarLogarithm(v[2]), scalarLogarithm(v[3]))
        }
        return normalLogarithm(v)
    }

    /// `logarithm(_:)` for lanes that are all positive normal numbers (at least
    /// `Double.leastNormalMagnitude`); other inputs give meaningless results.
    @inline(__always)
    static func normalLogarithm(_ v: Lanes) -> Lanes {
        let bits = unsafeBitCast(v, to: SIMD4<UInt64>.self)
        let fromOffset = bits &- SIMD4(repeating: 0x3FE6_0000_0000_0000)
        let entry = (fromOffset &>> 44) & SIMD4(repeating: 255)
        // z: x with k taken off its exponent.
        let z = unsafeBitCast(bits &- (fromOffset & SIMD4(repeating: 0xFFF0_0000_0000_0000)), to: Lanes.self)
        // k as a Double without an integer conversion (SSE2 and AVX2 have no packed
        // Int64 → Double): k + 2048 placed in the mantissa of 2^52, then 2^52 + 2048 taken
        // off, exactly.
        let kBits = ((fromOffset &>> 52) &+ SIMD4(repeating: 2048)) & SIMD4(repeating: 0xFFF)
        let k =
            unsafeBitCast(kBits | SIMD4(repeating: 0x4330_0000_0000_0000), to: Lanes.self)
            - Lanes(repeating: 4_503_599_627_370_496.0 + 2048)
        let i0 = Int(truncatingIfNeeded: entry[0]) &* 2, i1 = Int(truncatingIfNeeded: entry[1]) &* 2
        let i2 = Int(truncatingIfNeeded: entry[2]) &* 2, i3 = Int(truncatingIfNeeded: entry[3]) &* 2
        let inverseC = Lanes(logarithmTable[i0], logarithmTable[i1], logarithmTable[i2], logarithmTable[i3])
        let logC = Lanes(
            logarithmTable[i0 &+ 1], logarithmTable[i1 &+ 1], logarithmTable[i2 &+ 1], logarithmTable[i3 &+ 1])
        let r = multiplyAdd(z, inverseC, Lanes(repeating: -1))
        // log1p(r) - r = -r²/2 + r³/3 - r⁴/4 + r⁵/5, in a short chain.
        let r2 = r * r
        let c2 = Lanes(repeating: -0.5), c3 = Lanes(repeating: 1.0 / 3), c4 = Lanes(repeating: -0.25)
        let c5 = Lanes(repeating: 0.2)
        let series = multiplyAdd(r2, c2, r * r2 * multiplyAdd(r2, c5, multiplyAdd(r, c4, c3)))
        // k·ln 2 with one constant (libm splits it for a correctly rounded last bit): at most
        // 1.1e-16 relative, and 2.815 -> 2.745 ns per bin.
        let ln2 = Lanes(repeating: 0x1.62e42fefa39efp-1)
        return multiplyAdd(k, ln2, logC) + (r + series)
    }

    @inline(never)
    static func scalarLogarithm(_ value: Double) -> Double {
        value == 0 ? -.infinity : Foundation.log(value)
    }

    /// Σ values[range], eight lanes at a time (bands and the SNR's noise bins).
    ///
    /// Why two accumulators: with one, each block waited for the previous block's add, and
    /// the noise sum alone covers nearly every bin of every frame.
    static func sum(_ values: UnsafePointer<Double>, _ range: Range<Int>) -> Double {
        var lanes = Lanes(repeating: 0)
        var more = Lanes(repeating: 0)
        var k = range.lowerBound
        while k + 8 <= range.upperBound {
            lanes += load(values, k)
            more += load(values, k + 4)
            k += 8
        }
        if k + 4 <= range.upperBound {
            lanes += load(values, k)
            k += 4
        }
        var total = (lanes + more).sum()
        while k < range.upperBound {
            total += values[k]
            k += 1
        }
        return total
    }

    /// The first k with `values[0] + ... + values[k] >= threshold` (for the rolloff), or the
    /// last bin if rounding leaves even the whole sum just short of it.
    ///
    /// Why in blocks: a running sum is one dependent addition per bin; scanned bin by bin it
    /// was 85% of `measureSpectrum` and 3.6% of a whole run (perf). Eight bins are summed at
    /// a time, independently of the running total, until a block would reach the threshold;
    /// that block is then scanned bin by bin. The totals round differently from a plain
    /// scan only in the last bits (the answer can change only on a near-tie, which
    /// docs/features.md accepts either way), and if that rounding makes the block fall short,
    /// the scan simply goes on.
    static func firstBin(reaching threshold: Double, runningSumOf values: UnsafePointer<Double>, count: Int) -> Int {
        var running = 0.0
        var k = 0
        while k + 8 <= count {
            let block = (load(values, k) + load(values, k + 4)).sum()
            if running + block >= threshold { break }
            running += block
            k += 8
        }
        while k < count {
            running += values[k]
            if running >= threshold { return k }
            k += 1
        }
        return count - 1
    }
}
