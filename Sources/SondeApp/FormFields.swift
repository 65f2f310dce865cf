/// The fields of an `application/x-www-form-urlencoded` body (or a query), by name; the
/// first value of a repeated name wins.
struct FormFields: Sendable, Equatable {
    private var fields: [String: String] = [:]

    init() {}

    init(encoded text: String) {
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            guard fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    subscript(_ name: String) -> String { fields[name] ?? "" }

    /// The longest comment, in characters: what the page's `maxlength` says, enforced here
    /// because a request need not come from the page.
    static let commentLimit = 2000

    /// A measurement's comment as given, or a refusal naming what is wrong: too long, a NUL
    /// or other control character (a NUL cut the stored text short), or a bidirectional
    /// override that would show a name backwards (issue 44). Line breaks and tabs are kept.
    static func comment(_ text: String) throws -> String {
        guard text.count <= commentLimit else {
            throw WebError.badField("The comment is longer than \(commentLimit) characters")
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x0D || value == 0x09 { continue }
            if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) {
                throw WebError.badField("The comment holds a control character (U+\(hex(value))); remove it")
            }
            if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
                || value == 0x200F
            {
                throw WebError.badField(
                    "The comment holds a text-direction control (U+\(hex(value))), which can make text read backwards")
            }
        }
        return text
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `+` as a space, `%XX` as its byte; a malformed escape is kept as typed.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
