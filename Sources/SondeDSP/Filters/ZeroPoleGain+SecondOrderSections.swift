import ComplexModule

extension ZeroPoleGain {
    /// scipy's `zpk2sos(z, p, k)` for a digital filter (pairing `'nearest'`), ported line by
    /// line: same section order (the pole closest to the unit circle goes last), same pairing
    /// of each pole with its nearest zero, gain folded into the first section's numerator.
    ///
    /// Deviation: where two *different* zeros are exactly equally near a pole, numpy's
    /// `argsort` (an unstable SIMD sort) decides; this port takes the first in array order.
    func secondOrderSections() -> SecondOrderSections {
        var poles = self.poles
        var zeros = self.zeros
        if zeros.isEmpty && poles.isEmpty {
            return SecondOrderSections(uncheckedCoefficients: [gain, 0, 0, 1, 0, 0])
        }
        // Same number of poles and zeros, padded with roots at the origin.
        poles += Array(repeating: Value(0, 0), count: max(zeros.count - poles.count, 0))
        zeros += Array(repeating: Value(0, 0), count: max(poles.count - zeros.count, 0))
        let sectionCount = (max(poles.count, zeros.count) + 1) / 2
        if poles.count % 2 == 1 {
            poles.append(Value(0, 0))
            zeros.append(Value(0, 0))
        }
        // One root of each conjugate pair (averaged), then the real roots.
        zeros = Self.conjugatePairsThenReals(zeros)
        poles = Self.conjugatePairsThenReals(poles)

        var sections = [[Double]](repeating: [], count: sectionCount)
        for index in stride(from: sectionCount - 1, through: 0, by: -1) {
            let p1 = poles.remove(at: Self.indexOfWorst(poles))
            let realPolesLeft = poles.count(where: \.isExactlyReal)

            if p1.isExactlyReal && realPolesLeft == 0 {
                // The last real pole: a first-order section (padded to second order).
                let z1 = zeros.remove(at: Self.indexOfNearest(in: zeros, to: p1, .real))
                sections[index] = Self.section(zeros: [z1, Value(0, 0)], poles: [p1, Value(0, 0)])
            } else if poles.count + 1 == zeros.count && !p1.isExactlyReal && realPolesLeft == 1
                && zeros.count(where: \.isExactlyReal) == 1
            {
                // One real pole and one real zero left: this complex pole must take a complex zero.
                let z1 = zeros.remove(at: Self.indexOfNearest(in: zeros, to: p1, .complex))
                sections[index] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p1.conjugate])
            } else {
                let p2: Value
                if p1.isExactlyReal {
                    let realIndices = poles.indices.filter { poles[$0].isExactlyReal }
                    p2 = poles.remove(at: realIndices[Self.indexOfWorst(realIndices.map { poles[$0] })])
                } else {
                    p2 = p1.conjugate
                }
                if zeros.isEmpty {
                    sections[index] = Self.section(zeros: [], poles: [p1, p2])
                } else {
                    let z1 = zeros.remove(at: Self.indexOfNearest(in: zeros, to: p1, .any))
                    if !z1.isExactlyReal {
                        sections[index] = Self.section(zeros: [z1, z1.conjugate], poles: [p1, p2])
                    } else if zeros.isEmpty {
                        sections[index] = Self.section(zeros: [z1], poles: [p1, p2])
                    } else {
                        let z2 = zeros.remove(at: Self.indexOfNearest(in: zeros, to: p1, .real))
                        sections[index] = Self.section(zeros: [z1, z2], poles: [p1, p2])
                    }
                }
            }
        }
        var coefficients = sections.flatMap { $0 }
        for i in 0..<3 {
            coefficients[i] *= gain
        }
        return SecondOrderSections(uncheckedCoefficients: coefficients)
    }

    private enum RootKind {
        case real, complex, any
    }

    /// scipy's `_cplxreal`: sorts the roots, splits the (numerically) real ones off, and keeps
    /// one averaged root of each conjugate pair, pairs first and reals after.
    ///
    /// Roots that are not real and have no conjugate cannot come out of a Butterworth design;
    /// scipy raises there, this port pairs what it can (it is internal and never sees them).
    private static func conjugatePairsThenReals(_ roots: [Value]) -> [Value] {
        if roots.isEmpty { return roots }
        let tolerance = 100 * Double.ulpOfOne
        // np.lexsort((abs(imag), real)): by real part, then |imag|, stable.
        let sorted = stableSorted(roots) { a, b in
            a.real != b.real ? a.real < b.real : abs(a.imaginary) < abs(b.imaginary)
        }
        let isReal = { (root: Value) in
            abs(root.imaginary) <= tolerance * NumPyComplexArithmetic.magnitude(root)
        }
        let reals = sorted.filter(isReal).map { Value($0.real, 0) }
        if reals.count == sorted.count { return reals }

        let complexRoots = sorted.filter { !isReal($0) }
        var upper = complexRoots.filter { $0.imaginary > 0 }
        var lower = complexRoots.filter { $0.imaginary < 0 }
        // Within each run of (nearly) equal real parts, order by |imag| so conjugates line up.
        var start = 0
        while start < upper.count {
            var end = start
            while end + 1 < upper.count
                && upper[end + 1].real - upper[end].real
                    <= tolerance * NumPyComplexArithmetic.magnitude(upper[end])
            {
                end += 1
            }
            if end > start {
                let byImaginary = { (a: Value, b: Value) in abs(a.imaginary) < abs(b.imaginary) }
                upper.replaceSubrange(start...end, with: stableSorted(Array(upper[start...end]), by: byImaginary))
                lower.replaceSubrange(start...end, with: stableSorted(Array(lower[start...end]), by: byImaginary))
            }
            start = end + 1
        }
        // (zp + conj(zn)) / 2, where numpy's division by 2 is a multiplication by 0.5.
        let averaged = zip(upper, lower).map { p, n in
            NumPyComplexArithmetic.divide(Value(p.real + n.real, p.imaginary + -n.imaginary), Value(2, 0))
        }
        return averaged + reals
    }

    /// `argmin(abs(1 - abs(p)))`: the pole closest to the unit circle, first one on ties.
    private static func indexOfWorst(_ poles: [Value]) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for (index, pole) in poles.enumerated() {
            let distance = abs(1 - NumPyComplexArithmetic.magnitude(pole))
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }

    /// scipy's `_nearest_real_complex_idx`: the nearest root of the requested kind.
    private static func indexOfNearest(in roots: [Value], to target: Value, _ kind: RootKind) -> Int {
        let distances = roots.map {
            NumPyComplexArithmetic.magnitude(Value($0.real - target.real, $0.imaginary - target.imaginary))
        }
        let order = roots.indices.sorted { a, b in
            distances[a] != distances[b] ? distances[a] < distances[b] : a < b
        }
        switch kind {
        case .any:
            return order[0]
        case .real:
            return order.first { roots[$0].isExactlyReal } ?? order[0]
        case .complex:
            return order.first { !roots[$0].isExactlyReal } ?? order[0]
        }
    }

    /// scipy's `_single_zpksos`: one section from up to two zeros and two poles, the
    /// polynomials right-aligned (`[0, 1, -z]` for a single zero).
    private static func section(zeros: [Value], poles: [Value]) -> [Double] {
        let b = polynomial(zeros)
        let a = polynomial(poles)
        var row = [Double](repeating: 0, count: 6)
        row.replaceSubrange((3 - b.count)..<3, with: b)
        row.replaceSubrange((6 - a.count)..<6, with: a)
        return row
    }

    /// scipy's `poly`: repeated `convolve(a, [1, -root])`, keeping the real parts (the roots
    /// given here are real or conjugate pairs).
    private static func polynomial(_ roots: [Value]) -> [Double] {
        var a = [Value(1, 0)]
        for root in roots {
            let negated = Value(-root.real, -root.imaginary)
            var next = [a[0]]
            for i in 1..<(a.count + 1) {
                let product = NumPyComplexArithmetic.multiplyUnfused(a[i - 1], negated)
                if i < a.count {
                    next.append(Value(a[i].real + product.real, a[i].imaginary + product.imaginary))
                } else {
                    next.append(product)
                }
            }
            a = next
        }
        return a.map(\.real)
    }

    /// A sort that keeps equal elements in their original order, as numpy's `lexsort` does.
    private static func stableSorted(_ values: [Value], by areInIncreasingOrder: (Value, Value) -> Bool) -> [Value] {
        values.indices.sorted { a, b in
            if areInIncreasingOrder(values[a], values[b]) { return true }
            if areInIncreasingOrder(values[b], values[a]) { return false }
            return a < b
        }.map { values[$0] }
    }
}

extension Complex<Double> {
    /// `np.isreal`: the imaginary part is exactly zero.
    fileprivate var isExactlyReal: Bool { imaginary == 0 }
}
