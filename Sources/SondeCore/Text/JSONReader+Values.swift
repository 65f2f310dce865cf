#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reader's values beyond numbers and strings: what a manifest, a pairing or a draft's
/// header holds (booleans, nulls, 64-bit patterns), and any value as a tree for text whose
/// keys are not known in advance (a measurement's saved settings).
extension JSONReader {
    @inlinable
    package mutating func bool() throws -> Bool {
        if take(word: "true") { return true }
        if take(word: "false") { return false }
        throw failure("expected true or false")
    }

    /// Whether the next value is `null`, read past if so: an optional field reads
    /// `reader.takeNull() ? nil : try reader.string()`.
    @inlinable
    package mutating func takeNull() -> Bool {
        take(word: "null")
    }

    /// A 64-bit pattern or count written as plain digits (a seed, a double's bits), exactly.
    @inlinable
    package mutating func unsignedInteger() throws -> UInt64 {
        skipSpace()
        guard let (value, next) = digits(from: position) else { throw failure("expected a whole number of 64 bits") }
        position = next
        return value
    }

    /// Any value as a `JSONValue`: an object's members in their order, a number in plain
    /// digits that fits an `Int` as `.integer`, any other number as `.number`.
    package mutating func value() throws -> JSONValue {
        skipSpace()
        guard position < end else { throw failure("expected a value") }
        switch position.pointee {
        case UInt8(ascii: "{"):
            var members: [JSONValue.Member] = []
            try object { key, reader in
                members.append(.init(String(decoding: key.bytes, as: UTF8.self), try reader.value()))
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try array { elements.append(try $0.value()) }
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try bool())
        case UInt8(ascii: "n"):
            guard takeNull() else { throw failure("expected a value") }
            return .null
        default:
            let negative = position.pointee == UInt8(ascii: "-")
            if let (magnitude, next) = digits(from: negative ? position + 1 : position),
                let value = negative ? Int(exactly: -Int128(magnitude)) : Int(exactly: magnitude)
            {
                position = next
                return .integer(value)
            }
            return .number(try number())
        }
    }

    /// Reads past `word` (`true`, `false`, `null`) when it comes next.
    @inlinable
    mutating func take(word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard end - position >= count, memcmp(word.utf8Start, position, count) == 0 else { return false }
        position += count
        return true
    }
}
