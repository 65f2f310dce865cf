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
