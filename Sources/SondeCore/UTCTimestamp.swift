/// RFC 3339 UTC spellings of instants given as seconds since 1970, without the C library's
/// time zone machinery (so every layer can use it, and no locale or TZ ever changes it).
public enum UTCTimestamp {
    /// `2026-03-01T12:34:56Z`: whole seconds, rounded down.
    public static func rfc3339(epochSeconds: Double) -> String {
        let seconds = Int64((epochSeconds).rounded(.down))
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        guard (0...9999).contains(year) else {
            return
                "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))Z"
        }
        // Twenty bytes written in place: interpolating six padded strings was a tenth of a
        // 10,000-line listing (perf).
        return String(unsafeUninitializedCapacity: 20) { bytes in
            func put(_ value: Int64, width: Int, at start: Int, then separator: Unicode.Scalar) {
                var rest = value
                for position in (start..<start + width).reversed() {
                    bytes[position] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                    rest /= 10
                }
                bytes[start + width] = UInt8(ascii: separator)
            }
            put(year, width: 4, at: 0, then: "-")
            put(month, width: 2, at: 5, then: "-")
            put(day, width: 2, at: 8, then: "T")
            put(hour, width: 2, at: 11, then: ":")
            put(minute, width: 2, at: 14, then: ":")
            put(second, width: 2, at: 17, then: "Z")
            return 20
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// Howard Hinnant's `civil_from_days` (proleptic Gregorian calendar).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
