extension DecimalScanner {
    /// `mantissa * 10^exponent` correctly rounded to a normal Double by the Eisel-Lemire
    /// method (Lemire 2021, as fast_float implements it): one or two 64x64->128-bit
    /// products with a truncated power of five, then rounding to 53 bits with an exact
    /// tie check. Returns nil where this method cannot decide or does not apply, and the
    /// caller uses `strtod` instead: an ambiguous truncated product, a subnormal or
    /// overflowing result, an exponent outside -342...308.
    ///
    /// - Parameters:
    ///   - mantissa: the decimal digits as an integer, 1 ... 10^19 - 1 (exact).
    ///   - exponent: the power of ten applied to it.
    @inline(__always)
    func eiselLemire(_ mantissa: UInt64, _ exponent: Int) -> Double? {
        guard exponent >= PowersOfFive.smallestExponent && exponent <= PowersOfFive.largestExponent else {
            return nil
        }
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << UInt64(leadingZeros)
        let index = 2 * (exponent - PowersOfFive.smallestExponent)
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits are needed (52 + implicit + round + one spare); when the 9 bits below
        // them are all ones the low half of the power of five may carry into them.
        if high & 0x1FF == 0x1FF {
            let second = normalized.multipliedFullWidth(by: powersOfFive[index + 1]).high
            let (sum, carried) = low.addingReportingOverflow(second)
            low = sum
            if carried { high &+= 1 }
        }
        // Still ambiguous outside the range where 5^q is exact in 128 bits: give up.
        if low == .max && (exponent < -27 || exponent > 55) { return nil }
        let upperBit = Int(high >> 63)
        let shift = UInt64(upperBit + 9)
        var significand = high >> shift
        // floor(log2(10^q)) + 63, then the Double's exponent bias.
        var biasedExponent = ((152_170 + 65_536) &* exponent) >> 16 + 63 + upperBit - leadingZeros + 1023
        if biasedExponent <= 0 { return nil }
        // An exact halfway case (only possible for small |q|) rounds to even.
        if low <= 1 && exponent >= -4 && exponent <= 23 && significand & 3 == 1 && significand << shift == high {
            significand &= ~1
        }
        significand += significand & 1
        significand >>= 1
        if significand >= 1 << 53 {
            significand = 1 << 52
            biasedExponent += 1
        }
        if biasedExponent >= 0x7FF { return nil }
        return Double(bitPattern: UInt64(biasedExponent) << 52 | (significand & ~(1 << 52)))
    }
}
