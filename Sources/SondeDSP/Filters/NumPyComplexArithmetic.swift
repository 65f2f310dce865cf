import ComplexModule
import Foundation

/// Complex arithmetic done the way numpy 2.x does it on x86-64, operation for operation.
///
/// scipy's `zpk2sos` picks poles by "closest to the unit circle" and zeros by "nearest to the
/// pole". Designs with poles of (almost) equal magnitude make those choices depend on the last
/// bit of each pole, so reproducing scipy's section order and pairing needs the same roundings,
/// not merely the same mathematics. swift-numerics' `Complex` operators use different (better
/// scaled) algorithms, so the design code uses these functions instead. Each was checked
/// bit for bit against numpy 2.4 on random inputs:
///
/// - array `*` and `**2` use numpy's SIMD loop, which fuses one product of each part (FMA);
/// - `prod` and `convolve` (inside `poly`) use the plain scalar formula;
/// - `/` is Smith's algorithm as in numpy's `loops.c.src`, for arrays and scalars alike;
/// - `sqrt` is glibc's `csqrt` (numpy calls the C library);
/// - `abs` is numpy's SIMD `larger * sqrt(1 + (smaller/larger)²)`, not `hypot`.
///
/// Only `tan` cannot be matched: numpy uses Intel SVML for float64 `tan` on AVX-512 machines,
/// which differs from the C library in the last bit about 0.5 % of the time.
enum NumPyComplexArithmetic {
    typealias Value = Complex<Double>

    /// numpy's vectorised complex multiply: `re = fma(ar, br, -(ai*bi))`, `im = fma(ar, bi, ai*br)`.
    static func multiply(_ a: Value, _ b: Value) -> Value {
        Value(
            (-(a.imaginary * b.imaginary)).addingProduct(a.real, b.real),
            (a.imaginary * b.real).addingProduct(a.real, b.imaginary)
        )
    }

    /// numpy's scalar complex multiply, used by reductions (`prod`) and `convolve`.
    static func multiplyUnfused(_ a: Value, _ b: Value) -> Value {
        Value(
            a.real * b.real - a.imaginary * b.imaginary,
            a.real * b.imaginary + a.imaginary * b.real
        )
    }

    /// `np.prod` of a complex array: a left-to-right scalar product starting from 1.
    static func product(_ values: [Value]) -> Value {
        var result = Value(1, 0)
        for value in values {
            result = multiplyUnfused(result, value)
        }
        return result
    }

    /// numpy's complex division (Smith's algorithm, with a reciprocal of the scaled divisor).
    static func divide(_ a: Value, _ b: Value) -> Value {
        let c = b.real
        let d = b.imaginary
        if abs(c) >= abs(d) {
            if c == 0 && d == 0 {
                return Value(a.real / abs(c), a.imaginary / abs(c))
            }
            let ratio = d / c
            let scale = 1.0 / (c + d * ratio)
            return Value((a.real + a.imaginary * ratio) * scale, (a.imaginary - a.real * ratio) * scale)
        } else {
            let ratio = c / d
            let scale = 1.0 / (d + c * ratio)
            return Value((a.real * ratio + a.imaginary) * scale, (a.imaginary * ratio - a.real) * scale)
        }
    }

    /// glibc's `csqrt` for finite arguments (the only ones a valid design produces).
    static func squareRoot(_ z: Value) -> Value {
        let x = z.real
        let y = z.imaginary
        if y == 0 {
            if x < 0 {
                return Value(0, Double(signOf: y, magnitudeOf: sqrt(-x)))
            }
            return Value(abs(sqrt(x)), Double(signOf: y, magnitudeOf: 0))
        }
        if x == 0 {
            let r = sqrt(0.5 * abs(y))
            return Value(r, Double(signOf: y, magnitudeOf: r))
        }
        let d = hypot(x, y)
        let r: Double
        let s: Double
        // 2·Re·Im = Im x avoids the cancellation in d ± Re x.
        if x > 0 {
            r = sqrt(0.5 * (d + x))
            s = 0.5 * (y / r)
        } else {
            s = sqrt(0.5 * (d - x))
            r = abs(0.5 * (y / s))
        }
        return Value(r, Double(signOf: y, magnitudeOf: s))
    }

    /// numpy's vectorised `abs` of a complex number.
    static func magnitude(_ z: Value) -> Double {
        let re = abs(z.real)
        let im = abs(z.imaginary)
        let larger = max(re, im)
        let smaller = min(re, im)
        if larger == 0 { return 0 }
        let ratio = smaller / larger
        return sqrt(1.0.addingProduct(ratio, ratio)) * larger
    }

    /// `-exp(1j * theta)` as numpy evaluates it through glibc's `cexp` (which skips `sincos`
    /// for subnormal or zero angles).
    static func negatedUnitPhasor(_ theta: Double) -> Value {
        if abs(theta) > Double.leastNormalMagnitude {
            return Value(-cos(theta), -sin(theta))
        }
        return Value(-1, -theta)
    }
}
