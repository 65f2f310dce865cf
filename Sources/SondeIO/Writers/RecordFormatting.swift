#if canImport(Glibc)
import Glibc
#endif
import SondeCore

/// Appending values to an output buffer in the spellings FEATURES.md section 6 asks for.
extension Array where Element == UInt8 {
    /// Shortest text that reads back to the same Double, spelled as Swift's `description`
    /// spells it (`ShortestDecimal`). Non-finite values never reach here: every feature
    /// defines its degenerate value.
    mutating func appendNumber(_ value: Double) {
        assert(value.isFinite, "features must never produce NaN or infinity")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDecimal.textScratchCount) { text in
            let count = ShortestDecimal.write(value, into: UnsafeMutableRawBufferPointer(text))
            append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// Each of `values` after a `separator`, spelled as `appendNumber` spells it. The text
    /// is staged on the stack, 24 numbers at a time, and appended in one piece: appending
    /// each number on its own cost a `memmove` call apiece, 2% of a whole run (perf).
    mutating func appendNumbers(_ values: UnsafeBufferPointer<Double>, separatedBy separator: UInt8) {
        let numbersPerBlock = 24
        let bytesPerNumber = 25  // the separator and at most 24 bytes of text
        let capacity = numbersPerBlock * bytesPerNumber + ShortestDecimal.textScratchCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { block in
            let text = UnsafeMutableRawBufferPointer(block)
            var first = 0
            while first < values.count {
                let end = Swift.min(first + numbersPerBlock, values.count)
                var used = 0
                for value in values[first..<end] {
                    text[used] = separator
                    used += 1
                    used += ShortestDecimal.write(value, into: UnsafeMutableRawBufferPointer(rebasing: text[used...]))
                }
                append(contentsOf: UnsafeBufferPointer(rebasing: block[..<used]))
                first = end
            }
        }
    }

    /// Decimal digits written in place, without an intermediate String.
    mutating func appendInteger(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        var index = self.count + count - 1
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        repeat {
            self[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// An RFC 4180 field: quoted (with doubled quotes) only when it holds `,`, `"`, CR or LF.
    mutating func appendCSVField(_ text: String) {
        let needsQuotes = text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
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

    /// A JSON string literal with the escapes RFC 8259 requires.
    mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): appendASCII("\\\"")
            case UInt8(ascii: "\\"): appendASCII("\\\\")
            case 10: appendASCII("\\n")
            case 13: appendASCII("\\r")
            case 9: appendASCII("\\t")
            case 0..<32:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                appendASCII("\\u00")
                append(hex[Int(byte >> 4)])
                append(hex[Int(byte & 15)])
            default: append(byte)
            }
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
