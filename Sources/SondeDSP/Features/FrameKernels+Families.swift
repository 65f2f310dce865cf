extension FrameKernels {
    /// Σ a[k]·b[k] for k in 0..<count, eight lanes at a time: the mel filters, the
    /// weighting curves and the velocity weights are all weighted sums of a spectrum.
    ///
    /// Why lanes: a scalar sum is one dependent add per bin; with every family on, the two
    /// weighting curves alone were 4% of a run (perf) before this.
    static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int) -> Double {
        var lanes = Lanes(repeating: 0)
        var more = Lanes(repeating: 0)
        var k = 0
        while k + 8 <= count {
            lanes = multiplyAdd(load(a, k), load(b, k), lanes)
            more = multiplyAdd(load(a, k + 4), load(b, k + 4), more)
            k += 8
        }
        var total = (lanes + more).sum()
        while k < count {
            total += a[k] * b[k]
            k += 1
        }
        return total
    }

    /// Σ (a[k] - b[k])² for k in 0..<count (spectral flux), in lanes like `dot`.
    static func squaredDistance(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int) -> Double {
        var lanes = Lanes(repeating: 0)
        var more = Lanes(repeating: 0)
        var k = 0
        while k + 8 <= count {
            let d = load(a, k) - load(b, k)
            let e = load(a, k + 4) - load(b, k + 4)
            lanes = multiplyAdd(d, d, lanes)
            more = multiplyAdd(e, e, more)
            k += 8
        }
        var total = (lanes + more).sum()
        while k < count {
            let d = a[k] - b[k]
            total += d * d
            k += 1
        }
        return total
    }
}
