import SondeCore

/// 5^q for q in -342...308, normalised so bit 127 is set and cut to 128 bits (two UInt64s,
/// high first): the table of the Eisel-Lemire conversion (Lemire, "Number Parsing at a
/// Gigabyte per Second", 2021), as fast_float ships it.
///
/// Taken from sonde's one table of powers, SondeCore's `ShortestDecimal.powersOfTen`:
/// 10^q = 5^q × 2^q, so the normalised significands are the same. They differ in the last
/// bit because each algorithm's proof is for its own rounding: Schubfach's entries are all
/// rounded up (floor + 1), fast_float's are truncated except for q in -27...-1, where its
/// generator's + 1 survives (below -27 it halves the rounded value and drops it). So every
/// entry outside -27...-1 is the shared one less one unit; `make_powers_of_ten.py` checks
/// that against fast_float's own generator when it writes the shared table.
enum PowersOfFive {
    static let smallestExponent = -342
    static let largestExponent = 308

    /// Where fast_float's entries are rounded up, as the shared table's all are.
    static let roundedUp = -27...(-1)

    /// The entries, high then low word, from `smallestExponent` up; made once per process
    /// (each `DecimalScanner` copies it).
    static let table: [UInt64] = {
        var table: [UInt64] = []
        table.reserveCapacity(2 * (largestExponent - smallestExponent + 1))
        for exponent in smallestExponent...largestExponent {
            let index = 2 * (exponent - ShortestDecimal.lowestPowerOfTen)
            var high = ShortestDecimal.powersOfTen[index]
            var low = ShortestDecimal.powersOfTen[index + 1]
            if !roundedUp.contains(exponent) {
                if low == 0 { high -= 1 }
                low &-= 1
            }
            table.append(high)
            table.append(low)
        }
        return table
    }()
}
