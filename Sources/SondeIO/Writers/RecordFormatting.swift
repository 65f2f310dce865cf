import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Appending CSV fields and record times to an output buffer in the spellings docs/features.md
/// section 6 asks for (numbers: `Array+NumberText.swift` in SondeCore).
extension Array where Element == UInt8 {
    /// An RFC 4180 field: quoted (with doubled quotes) only when it holds `,`, `"`, CR or LF.
    mutating func appendCSVField(_ text: String) {
        let needsQuotes = text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13
        }
        guard needsQuotes else {
            append(contentsOf: text.utf8)
            return
        }
        append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { append(byte) }
            append(byte)
        }
        append(UInt8(ascii: "\""))
    }

    /// A record's time: seconds for files, RFC 3339 UTC with milliseconds for live sources.
    mutating func appendTime(of clock: RecordClock, start: Int, quoted: Bool) {
        switch clock {
        case .seconds(let rate, let offset):
            appendNumber(Double(start) / rate + offset)
        case .wallClock(let rate, let epoch):
            if quoted { append(UInt8(ascii: "\"")) }
            appendRFC3339(epochSeconds: epoch + Double(start) / rate)
            if quoted { append(UInt8(ascii: "\"")) }
        }
    }

    mutating func appendRFC3339(epochSeconds: Double) {
        let milliseconds = Int64((epochSeconds * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var millisecond = Int(milliseconds - Int64(seconds) * 1000)
        if millisecond < 0 {
            millisecond += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendPadded(Int(parts.tm_year) + 1900, width: 4)
        append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mon) + 1, width: 2)
        append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mday), width: 2)
        append(UInt8(ascii: "T"))
        appendPadded(Int(parts.tm_hour), width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_min), width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_sec), width: 2)
        append(UInt8(ascii: "."))
        appendPadded(millisecond, width: 3)
        append(UInt8(ascii: "Z"))
    }

    private mutating func appendPadded(_ value: Int, width: Int) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        for _ in digits..<Swift.max(width, digits) { append(UInt8(ascii: "0")) }
        appendInteger(value)
    }
}
