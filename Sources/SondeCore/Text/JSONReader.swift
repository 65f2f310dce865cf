/// A position in zero-terminated JSON bytes, read value by value: the reader of the JSON
/// that `JSONValue` writes (stored measurements' columns), without making a tree.
///
/// A reader says what it expects where (`object`, `array`, `string`, `number`) and skips the
/// rest unconverted (`skipValue`), so a listing converts only the numbers it shows. Numbers
/// go through `Numbers` (SondeIO's `DecimalScanner`: strtod's exact results, the CSV
/// reader's).
///
/// Inlinable, so each reader gets it specialised and inlined in its own module, as when it
/// lived beside `StoredJSONReader`: a listing's 10,000 rows read in 41 ms with it so
/// (docs/performance.md), each row an object of arrays read through closures.
package struct JSONReader<Numbers: JSONNumberScanner> {
    @usableFromInline let start: UnsafePointer<UInt8>
    package let end: UnsafePointer<UInt8>
    /// Set by the reading methods and `rewind(to:)` only.
    package var position: UnsafePointer<UInt8>
    @usableFromInline let scanner: Numbers
    @usableFromInline let what: String

    /// - Parameters:
    ///   - start: the first byte; a zero byte follows the last (`end`), which stops every scan.
    ///   - what: what the text is, for errors: "stored summary" gives "stored summary, byte 12: ...".
    @inlinable
    package init(start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, numbers: Numbers, what: String) {
        self.start = start
        self.end = end
        position = start
        self.scanner = numbers
        self.what = what
    }

    @inlinable
    package func failure(_ problem: String) -> SondeError {
        SondeError(.invalidInput, "\(what), byte \(position - start): \(problem)")
    }

    @inlinable
    package mutating func skipSpace() {
        while position < end {
            let byte = position.pointee
            guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return }
            position += 1
        }
    }

    @inlinable
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < end, position.pointee == byte else { return false }
        position += 1
        return true
    }

    @inlinable
    mutating func expect(_ byte: UInt8) throws {
        guard take(byte) else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    /// `[ value, ... ]`, `body` reading each value.
    @inlinable
    package mutating func array(_ body: (inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return }
        repeat { try body(&self) } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// `{ "key": value, ... }`, `body` reading each value after its key.
    @inlinable
    package mutating func object(_ body: (JSONKey, inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if take(UInt8(ascii: "}")) { return }
        repeat {
            skipSpace()
            let first = position + 1
            var next = first
            while next < end, next.pointee != UInt8(ascii: "\""), next.pointee >= 0x20,
                next.pointee != UInt8(ascii: "\\")
            {
                next += 1
            }
            if position < end, position.pointee == UInt8(ascii: "\""), next < end, next.pointee == UInt8(ascii: "\"") {
                // The common key, without escapes: compared where it lies.
                position = next + 1
                try expect(UInt8(ascii: ":"))
                try body(JSONKey(bytes: UnsafeBufferPointer(start: first, count: next - first)), &self)
            } else {
                var key = try string()
                try expect(UInt8(ascii: ":"))
                try key.withUTF8 { try body(JSONKey(bytes: $0), &self) }
            }
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    @inlinable
    package mutating func strings() throws -> [String] {
        var strings: [String] = []
        try array { strings.append(try $0.string()) }
        return strings
    }

    @inlinable
    package mutating func numbers() throws -> [Double] {
        var numbers: [Double] = []
        try array { numbers.append(try $0.number()) }
        return numbers
    }

    @inlinable
    package mutating func number() throws -> Double {
        skipSpace()
        // JSON's grammar inside DecimalScanner's (which also takes "+1", ".5", "5."): what
        // JSON forbids is never written by StoredJSON, and reads as the number it spells.
        guard position < end, position.pointee == UInt8(ascii: "-") || (position.pointee &- 0x30) <= 9 else {
            throw failure("expected a number")
        }
        guard let (value, next) = scanner.number(at: position), next <= end else {
            throw failure("expected a number")
        }
        position = next
        return value
    }

    /// A whole number: plain digits exactly (a nanosecond time passes 2^53, where a double
    /// would round it), any other spelling ("1e3", "2.0") through `number()`.
    @inlinable
    package mutating func integer() throws -> Int {
        skipSpace()
        let negative = position < end && position.pointee == UInt8(ascii: "-")
        if let (magnitude, next) = digits(from: negative ? position + 1 : position),
            let value = negative ? Int(exactly: -Int128(magnitude)) : Int(exactly: magnitude)
        {
            position = next
            return value
        }
        let value = try number()
        guard let integer = Int(exactly: value) else { throw failure("expected a whole number") }
        return integer
    }

    /// Plain digits from `first` (no sign, fraction or exponent after them) as an exact
    /// value, and the byte after them; nil for any other text or more than 64 bits.
    @inlinable
    func digits(from first: UnsafePointer<UInt8>) -> (UInt64, UnsafePointer<UInt8>)? {
        var next = first
        var value: UInt64 = 0
        while next < end, (next.pointee &- 0x30) <= 9 {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(next.pointee &- 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
            next += 1
        }
        guard next > first else { return nil }
        if next < end {
            let byte = next.pointee
            guard byte != UInt8(ascii: "."), byte | 0x20 != UInt8(ascii: "e") else { return nil }
        }
        return (value, next)
    }

    /// A string, with every JSON escape (surrogate pairs included) decoded.
    @inlinable
    package mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let first = position
        // The common case, no escape: one copy of the bytes.
        while position < end, position.pointee != UInt8(ascii: "\""), position.pointee != UInt8(ascii: "\\") {
            guard position.pointee >= 0x20 else { throw failure("a control character in a string") }
            position += 1
        }
        guard position < end else { throw failure("a string without its closing quote") }
        if position.pointee == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: UnsafeBufferPointer(start: first, count: position - 1 - first), as: UTF8.self)
        }
        var bytes = Array(UnsafeBufferPointer(start: first, count: position - first))
        while position.pointee == UInt8(ascii: "\\") {
            position += 1
            guard position < end else { throw failure("a string without its closing quote") }
            let escape = position.pointee
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"): bytes.append(contentsOf: try unicodeEscape())
            default: throw failure("an unknown escape in a string")
            }
            while position < end, position.pointee != UInt8(ascii: "\""), position.pointee != UInt8(ascii: "\\") {
                guard position.pointee >= 0x20 else { throw failure("a control character in a string") }
                bytes.append(position.pointee)
                position += 1
            }
            guard position < end else { throw failure("a string without its closing quote") }
        }
        position += 1
        // The text is a valid String and cuts at ASCII quotes, so the bytes are valid UTF-8.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 of `\uXXXX` (its `\u` read), or of a `\uD8xx\uDCxx` pair.
    @inlinable
    mutating func unicodeEscape() throws -> [UInt8] {
        var unit = try hex4()
        if (0xD800..<0xDC00).contains(unit) {
            guard end - position >= 6, position[0] == UInt8(ascii: "\\"), position[1] == UInt8(ascii: "u") else {
                throw failure("half a surrogate pair")
            }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("half a surrogate pair") }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("half a surrogate pair") }
        return Array(String(Character(scalar)).utf8)
    }

    @inlinable
    mutating func hex4() throws -> UInt32 {
        guard end - position >= 4 else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = position.pointee | 0x20
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: throw failure("a \\u escape that is not 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Any JSON value, read past without keeping it (keys a later version may add).
    @inlinable
    package mutating func skipValue() throws {
        skipSpace()
        guard position < end else { throw failure("expected a value") }
        switch position.pointee {
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer()
        case UInt8(ascii: "\""): try skipString()
        default:
            for word in ["true", "false", "null"] where end - position >= word.utf8.count {
                if word.utf8.elementsEqual(UnsafeBufferPointer(start: position, count: word.utf8.count)) {
                    position += word.utf8.count
                    return
                }
            }
            try skipNumber()
        }
    }

    /// An array or object, read past by its brackets alone (strings and their escapes
    /// respected): a listing skips most of each summary, and what it skips it does not check.
    @inlinable
    package mutating func skipContainer() throws {
        var depth = 0
        while position < end {
            switch position.pointee {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return
                }
            case UInt8(ascii: "\""):
                position += 1
                while position < end, position.pointee != UInt8(ascii: "\"") {
                    position += position.pointee == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < end else { throw failure("a string without its closing quote") }
            default:
                break
            }
            position += 1
        }
        throw failure("an array or object without its end")
    }

    /// A string, read past: only its end is found.
    @inlinable
    package mutating func skipString() throws {
        try expect(UInt8(ascii: "\""))
        while position < end, position.pointee != UInt8(ascii: "\"") {
            position += position.pointee == UInt8(ascii: "\\") ? 2 : 1
        }
        guard position < end else { throw failure("a string without its closing quote") }
        position += 1
    }

    /// A number, read past without converting it.
    @inlinable
    package mutating func skipNumber() throws {
        skipSpace()
        let first = position
        while position < end {
            let byte = position.pointee
            guard
                (byte &- 0x30) <= 9 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
            else { break }
            position += 1
        }
        guard position > first else { throw failure("expected a value") }
    }

    /// Moves to `other`'s position (a second pass over the same bytes).
    @inlinable
    package mutating func rewind(to other: UnsafePointer<UInt8>) {
        position = other
    }

    /// The bytes from `first` to here.
    @inlinable
    package func bytes(from first: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: first, count: position - first)
    }
}
