/// The shortest decimal `significand × 10^exponent` that reads back to a given Double, and of
/// those the closest to it (an exact tie takes the even last digit): the digits of Swift's
/// `description`, which docs/features.md section 6 asks records to print.
///
/// Why not `description` itself: its formatter was 10–14% of a whole run (about 77 ns a
/// number; docs/performance.md). This is Raffaello Giulietti's Schubfach method ("The Schubfach way to render
/// doubles", 2020): the value's rounding interval is scaled by a single 128-bit power of ten,
/// rounded to odd so that comparing it with the candidate decimals stays exact, and the
/// answer is one of at most four candidates of two lengths. No loop over digits, no big
/// integers. `NumberFormattingTests` holds it to `description`, byte for byte.
package struct ShortestDecimal {
    /// Without trailing zeros.
    package var significand: UInt64
    package var exponent: Int

    /// `value` must be finite and non-zero; its sign is ignored.
    package init(_ value: Double) {
        let bits = value.bitPattern
        let fraction = bits & (1 << 52 - 1)
        let biasedExponent = Int(truncatingIfNeeded: (bits >> 52) & 0x7ff)
        // The value is c × 2^q exactly.
        let c: UInt64
        let q: Int
        if biasedExponent == 0 {
            c = fraction
            q = -1074
        } else {
            c = fraction | 1 << 52
            q = biasedExponent &- 1075
            // A whole number below 2^53 is its own shortest form: its neighbours are at
            // most one apart, so no other decimal of as few digits lies between them.
            if q <= 0, q > -53, c & (1 << UInt64(-q) - 1) == 0 {
                self.init(trimming: c >> UInt64(-q), exponent: 0)
                return
            }
        }
        self.init(significand: c, binaryExponent: q, lowerNeighbourIsCloser: fraction == 0 && biasedExponent > 1)
    }

    /// Schubfach proper, on the value `c × 2^q`. Everything is counted in quarters of the
    /// value's unit in the last place, so the interval's ends (halfway to each neighbour)
    /// are whole numbers: `4c - 2` and `4c + 2`, or `4c - 1` below a power of two, where
    /// the neighbour below is half as far away.
    private init(significand c: UInt64, binaryExponent q: Int, lowerNeighbourIsCloser: Bool) {
        // k = floor(log10(2^q)), or of (3/4)·2^q below a power of two: the scaled value
        // c × 2^q × 10^-k then has 16 or 17 digits. The multiply-shift forms are exact
        // over the whole double range (checked against exact logarithms by the table's
        // generator, make_powers_of_ten.py).
        let k = lowerNeighbourIsCloser ? (q &* 1262611 &- 524031) >> 22 : (q &* 1262611) >> 22
        let index = 2 &* (-k &- Self.lowestPowerOfTen)
        let power = (high: Self.powersOfTen[index], low: Self.powersOfTen[index &+ 1])
        // 10^-k = g × 2^(e - 127) with e = floor(log2(10^-k)); shifting the quarters left
        // by h brings c × 2^q × 10^-k to the top 64 bits of the 192-bit product. h is 1...4.
        let h = q &+ ((-k) &* 1741647) >> 19 &+ 1
        let quarters = c &<< 2
        let lowerEnd = Self.roundToOdd(power, (quarters &- (lowerNeighbourIsCloser ? 1 : 2)) &<< UInt64(h))
        let scaled = Self.roundToOdd(power, quarters &<< UInt64(h))
        let upperEnd = Self.roundToOdd(power, (quarters &+ 2) &<< UInt64(h))
        // Round-to-nearest-even reading accepts the interval's ends only for an even c.
        let isEven = c & 1 == 0
        let lower = isEven ? lowerEnd : lowerEnd &+ 1
        let upper = isEven ? upperEnd : upperEnd &- 1

        // `scaled` is 4 × (value × 10^-k), rounded to odd. Its integer part s and s + 1
        // are the two candidates of this length; s / 10 and s / 10 + 1 those one shorter.
        let s = scaled >> 2
        if s >= 10 {
            let shorter = s / 10
            let shorterBelowInside = lower <= 40 &* shorter
            let shorterAboveInside = 40 &* shorter &+ 40 <= upper
            // At most one of the two shorter ones can be inside.
            if shorterBelowInside != shorterAboveInside {
                self.init(trimming: shorterAboveInside ? shorter &+ 1 : shorter, exponent: k &+ 1)
                return
            }
        }
        let belowInside = lower <= 4 &* s
        let aboveInside = 4 &* s &+ 4 <= upper
        if belowInside != aboveInside {
            self.init(trimming: aboveInside ? s &+ 1 : s, exponent: k)
            return
        }
        // Both are inside: the closer one, or the even one at an exact tie.
        let midpoint = 4 &* s &+ 2
        let roundsUp = scaled > midpoint || (scaled == midpoint && s & 1 == 1)
        self.init(trimming: roundsUp ? s &+ 1 : s, exponent: k)
    }

    private init(trimming significand: UInt64, exponent: Int) {
        var significand = significand
        var exponent = exponent
        while significand % 10 == 0 {
            significand /= 10
            exponent &+= 1
        }
        self.significand = significand
        self.exponent = exponent
    }

    /// The top 64 bits of the 192-bit product `power × x`, with the lowest bit set when the
    /// bits below are not zero. `power` over-estimates 10^-k by less than one unit in its
    /// last place, so an exact product leaves at most 1 in the middle word: that is the
    /// "not zero" test of the Schubfach paper.
    @inline(__always)
    private static func roundToOdd(_ power: (high: UInt64, low: UInt64), _ x: UInt64) -> UInt64 {
        let low = x.multipliedFullWidth(by: power.low)
        let high = x.multipliedFullWidth(by: power.high)
        let (middle, carry) = high.low.addingReportingOverflow(low.high)
        let top = carry ? high.high &+ 1 : high.high
        return middle > 1 ? top | 1 : top
    }
}
