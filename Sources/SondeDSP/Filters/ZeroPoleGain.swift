import ComplexModule
import Foundation

/// A filter as zeros, poles and gain: the form in which scipy's `iirfilter` designs
/// Butterworth filters before converting them to second-order sections.
///
/// Every step here is a line-by-line port of scipy 1.17 (`buttap`, `lp2lp_zpk`, `lp2hp_zpk`,
/// `lp2bp_zpk`, `lp2bs_zpk`, `bilinear_zpk`), with numpy's arithmetic reproduced by
/// `NumPyComplexArithmetic`, so that `zpk2sos` sees the same roots and makes the same choices.
struct ZeroPoleGain {
    typealias Value = Complex<Double>
    private typealias Arithmetic = NumPyComplexArithmetic

    var zeros: [Value]
    var poles: [Value]
    var gain: Double

    /// Poles minus zeros: the zeros at infinity that each transform has to place somewhere.
    private var relativeDegree: Int { poles.count - zeros.count }

    /// scipy's `buttap`: the analog Butterworth low-pass prototype with cutoff 1 rad/s.
    /// - Parameter order: 1 or more.
    static func butterworthPrototype(order: Int) -> ZeroPoleGain {
        // numpy evaluates `1j * pi * m / (2 * N)` as `(pi * m) * (1 / (2N))` (complex division
        // by a real multiplies by the reciprocal); the middle pole (m = 0) is exactly -1.
        let reciprocal = 1.0 / Double(2 * order)
        let poles = stride(from: -order + 1, to: order, by: 2).map { m in
            Arithmetic.negatedUnitPhasor((Double.pi * Double(m)) * reciprocal)
        }
        return ZeroPoleGain(zeros: [], poles: poles, gain: 1)
    }

    /// scipy's `lp2lp_zpk`: scales a unit-cutoff low-pass to cutoff `wo` (rad/s).
    func lowpassToLowpass(cutoff wo: Double) -> ZeroPoleGain {
        let scale = Value(wo, 0)
        return ZeroPoleGain(
            zeros: zeros.map { Arithmetic.multiply(scale, $0) },
            poles: poles.map { Arithmetic.multiply(scale, $0) },
            gain: gain * pow(wo, Double(relativeDegree))
        )
    }

    /// scipy's `lp2hp_zpk`: inverts a unit-cutoff low-pass into a high-pass at `wo` (rad/s);
    /// the zeros at infinity move to the origin.
    func lowpassToHighpass(cutoff wo: Double) -> ZeroPoleGain {
        let scale = Value(wo, 0)
        return ZeroPoleGain(
            zeros: zeros.map { Arithmetic.divide(scale, $0) }
                + Array(repeating: Value(0, 0), count: relativeDegree),
            poles: poles.map { Arithmetic.divide(scale, $0) },
            gain: gain * inversionGain
        )
    }

    /// scipy's `lp2bp_zpk`: centre `wo`, width `bw` (both rad/s); half the zeros at infinity
    /// move to the origin, the other half stay at infinity.
    func lowpassToBandpass(center wo: Double, bandwidth bw: Double) -> ZeroPoleGain {
        // `z * bw/2` is `(z * bw) / 2`, a complex multiply then a complex division.
        let halfWidth = { (root: Value) in
            Arithmetic.divide(Arithmetic.multiply(root, Value(bw, 0)), Value(2, 0))
        }
        return ZeroPoleGain(
            zeros: Self.shiftedToBand(zeros.map(halfWidth), center: wo)
                + Array(repeating: Value(0, 0), count: relativeDegree),
            poles: Self.shiftedToBand(poles.map(halfWidth), center: wo),
            gain: gain * pow(bw, Double(relativeDegree))
        )
    }

    /// scipy's `lp2bs_zpk`: centre `wo`, width `bw` (both rad/s); the zeros at infinity move
    /// to ±j·wo, the centre of the stop band.
    func lowpassToBandstop(center wo: Double, bandwidth bw: Double) -> ZeroPoleGain {
        let halfWidth = Value(bw / 2, 0)
        let inverted = { (root: Value) in Arithmetic.divide(halfWidth, root) }
        return ZeroPoleGain(
            zeros: Self.shiftedToBand(zeros.map(inverted), center: wo)
                + Array(repeating: Value(0, wo), count: relativeDegree)
                + Array(repeating: Value(0, -wo), count: relativeDegree),
            poles: Self.shiftedToBand(poles.map(inverted), center: wo),
            gain: gain * inversionGain
        )
    }

    /// scipy's `bilinear_zpk` at scipy's internal sample rate: `s = 2·fs·(z-1)/(z+1)`; zeros
    /// at infinity move to Nyquist (z = -1).
    /// - Parameter sampleRate: the normalised rate, 2 in `iirfilter` (prewarping already done).
    func bilinear(sampleRate: Double) -> ZeroPoleGain {
        let fs2 = 2.0 * sampleRate
        let map = { (root: Value) in
            Arithmetic.divide(
                Value(fs2 + root.real, 0 + root.imaginary),
                Value(fs2 - root.real, 0 - root.imaginary)
            )
        }
        let distance = { (root: Value) in Value(fs2 - root.real, 0 - root.imaginary) }
        let gainChange = Arithmetic.divide(
            Arithmetic.product(zeros.map(distance)),
            Arithmetic.product(poles.map(distance))
        )
        return ZeroPoleGain(
            zeros: zeros.map(map) + Array(repeating: Value(-1, 0), count: relativeDegree),
            poles: poles.map(map),
            gain: gain * gainChange.real
        )
    }

    /// `real(prod(-z) / prod(-p))`: the gain that undoes an inversion `s → wo/s`.
    private var inversionGain: Double {
        let negate = { (root: Value) in Value(-root.real, -root.imaginary) }
        return Arithmetic.divide(
            Arithmetic.product(zeros.map(negate)),
            Arithmetic.product(poles.map(negate))
        ).real
    }

    /// Duplicates each root to `r ± sqrt(r² - wo²)`: all the `+` roots first, then all the `-`
    /// roots, in that order, as scipy concatenates them.
    private static func shiftedToBand(_ roots: [Value], center wo: Double) -> [Value] {
        let centerSquared = pow(wo, 2)
        let offsets = roots.map { root in
            let square = Arithmetic.multiply(root, root)
            return Arithmetic.squareRoot(Value(square.real - centerSquared, square.imaginary - 0))
        }
        let upper = zip(roots, offsets).map { Value($0.real + $1.real, $0.imaginary + $1.imaginary) }
        let lower = zip(roots, offsets).map { Value($0.real - $1.real, $0.imaginary - $1.imaginary) }
        return upper + lower
    }
}
