extension ShortestDecimal {
    /// The bytes `write(_:into:)` needs: the text is at most 24 bytes
    /// ("-1.2345678901234567e-308"), but digits are stored 16 at a time past its end.
    package static let textScratchCount = 48

    /// Writes a finite `value` the way Swift's `description` spells it and returns the byte
    /// count: "0.0", "-12.5", "1000000.0", "0.0001", "1e-05", "1.2345678901234567e+16".
    /// Plain decimals for 1e-4 <= |value| <= 2^53, where every whole number is exact;
    /// otherwise one digit, a point if more follow, and an exponent of at least two digits.
    ///
    /// The digits stay in registers and are only ever stored, in blocks that may run past
    /// the text's end and are overwritten or ignored: reading back bytes just stored in
    /// pieces would stall on store forwarding.
    package static func write(_ value: Double, into text: UnsafeMutableRawBufferPointer) -> Int {
        precondition(text.count >= textScratchCount && value.isFinite)
        guard let start = text.baseAddress else { return 0 }
        var out = start
        if value.sign == .minus {
            out.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            out += 1
        }
        if value == 0 {
            storeASCII(0x30_2e_30, count: 3, at: &out)  // "0.0"
            return out - start
        }
        let decimal = ShortestDecimal(value)
        let digits = Digits(decimal.significand)
        // The power of ten of the first digit.
        let leadingPower = decimal.exponent &+ digits.count &- 1

        if leadingPower < -4 || value.magnitude > 0x1p53 {
            out.storeBytes(of: digits.first, as: UInt8.self)
            out.storeBytes(of: UInt8(ascii: "."), toByteOffset: 1, as: UInt8.self)
            out.storeUnaligned(digits.rest, toByteOffset: 2)
            out += digits.count > 1 ? digits.count &+ 1 : 1
            storeASCII(leadingPower < 0 ? 0x2d_65 : 0x2b_65, count: 2, at: &out)  // "e-", "e+"
            var power = UInt32(truncatingIfNeeded: leadingPower.magnitude)
            if power >= 100 {
                out.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: power / 100), as: UInt8.self)
                out += 1
                power %= 100
            }
            let tens = power / 10
            storeASCII(0x30_30 &+ tens &+ (power &- tens &* 10) << 8, count: 2, at: &out)
        } else if leadingPower < 0 {
            // "0." and up to three zeros, then the digits.
            out.storeUnaligned(0x30_30_30_30_30_2e_30 as UInt64)
            out += 1 &- leadingPower
            out.storeBytes(of: digits.first, as: UInt8.self)
            out.storeUnaligned(digits.rest, toByteOffset: 1)
            out += digits.count
        } else if leadingPower &+ 1 < digits.count {
            // All the digits, then the point over the first fractional one and the
            // fraction again one place further on.
            let wholeDigits = leadingPower &+ 1
            out.storeBytes(of: digits.first, as: UInt8.self)
            out.storeUnaligned(digits.rest, toByteOffset: 1)
            out.storeBytes(of: UInt8(ascii: "."), toByteOffset: wholeDigits, as: UInt8.self)
            out.storeUnaligned(digits.rest >> (8 &* (wholeDigits &- 1)), toByteOffset: wholeDigits &+ 1)
            out += digits.count &+ 1
        } else {
            // A whole number: the digits, up to 15 zeros (|value| <= 2^53), ".0".
            out.storeBytes(of: digits.first, as: UInt8.self)
            out.storeUnaligned(digits.rest, toByteOffset: 1)
            out.storeUnaligned(0x30_30_30_30_30_30_30_30 as UInt64, toByteOffset: digits.count)
            out.storeUnaligned(0x30_30_30_30_30_30_30_30 as UInt64, toByteOffset: digits.count &+ 8)
            out += leadingPower &+ 1
            storeASCII(0x30_2e, count: 2, at: &out)  // ".0"
        }
        return out - start
    }

    /// The decimal digits of a number below 10^17 as ASCII: the first, and up to sixteen
    /// more in one 128-bit word, next digit in the lowest byte.
    private struct Digits {
        var first: UInt8
        var rest: UInt128
        var count: Int

        /// All seventeen places are made eight at a time; then the leading zeros are
        /// counted and shifted out, so nothing here branches on a digit's value.
        @inline(__always)
        init(_ number: UInt64) {
            let low = UInt32(truncatingIfNeeded: number % 100_000_000)
            let high = number / 100_000_000
            let leading = UInt32(truncatingIfNeeded: high / 100_000_000)
            let middle = UInt32(truncatingIfNeeded: high % 100_000_000)
            let sixteen = UInt128(ShortestDecimal.eightDigits(middle)) | UInt128(ShortestDecimal.eightDigits(low)) << 64
            if leading != 0 {
                first = 0x30 &+ UInt8(truncatingIfNeeded: leading)
                rest = sixteen
                count = 17
                return
            }
            let zeros = (sixteen ^ UInt128(repeatingByte: 0x30)).trailingZeroBitCount / 8
            let digits = sixteen >> (8 &* zeros)
            first = UInt8(truncatingIfNeeded: digits)
            rest = digits >> 8
            count = 16 &- zeros
        }
    }

    /// The eight decimal digits of `number` (below 10^8, with leading zeros) as ASCII in one
    /// little-endian word, first digit in the lowest byte. Each step splits every lane of
    /// the word in two at once: 4 + 4 digits in 32-bit lanes, 2 + 2 in 16-bit lanes, 1 + 1
    /// in bytes; the divisions are multiply-shifts that are exact below each lane's bound.
    @inline(__always)
    private static func eightDigits(_ number: UInt32) -> UInt64 {
        let upperFour = number / 10_000
        let fours = UInt64(upperFour) | UInt64(number &- upperFour &* 10_000) << 32
        let hundreds = ((fours &* 10_486) >> 20) & 0x0000_007f_0000_007f
        let pairs = hundreds | (fours &- hundreds &* 100) << 16
        let tens = ((pairs &* 103) >> 10) & 0x000f_000f_000f_000f
        let singles = tens | (pairs &- tens &* 10) << 8
        return singles &+ 0x30_30_30_30_30_30_30_30
    }

    /// Stores the low `count` bytes of `bytes` (first character in the lowest byte).
    @inline(__always)
    private static func storeASCII(_ bytes: UInt32, count: Int, at out: inout UnsafeMutableRawPointer) {
        out.storeUnaligned(bytes)
        out += count
    }
}

extension UInt128 {
    fileprivate init(repeatingByte byte: UInt8) {
        self = UInt128(byte) &* 0x0101_0101_0101_0101_0101_0101_0101_0101
    }
}

extension UnsafeMutableRawPointer {
    @inline(__always)
    fileprivate func storeUnaligned<T: FixedWidthInteger>(_ value: T, toByteOffset offset: Int = 0) {
        // storeBytes(of:toByteOffset:as:) has no alignment requirement since Swift 5.7.
        storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }
}
