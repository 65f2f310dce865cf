/// A JSON document as sonde writes every one it writes (summaries, manifests, stored
/// settings, reports): keys in the order given, numbers in the records' shortest
/// round-trip spelling (`appendNumber`), strings escaped as RFC 8259 requires. Records
/// themselves are written by `JSONRecordEncoder` with the same primitives, without the tree.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    /// A non-finite number is written as `null`: JSON has no spelling for it.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])
    /// Text that is already JSON (the caller has checked it), written as it is.
    case verbatim(String)

    /// One key and its value; an object keeps its members in order.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key-value pairs, in their order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    public static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
    public static func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }

    /// The compact text: no spaces, no newline.
    public var text: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An array written one element per line (`[`, elements indented by two, `]`, newline):
    /// files people read or diff, such as an export's index.
    public static func linesText(_ elements: [JSONValue]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "["), 10]
        for (index, element) in elements.enumerated() {
            bytes += [32, 32]
            element.write(into: &bytes)
            if index + 1 < elements.count { bytes.append(UInt8(ascii: ",")) }
            bytes.append(10)
        }
        bytes += [UInt8(ascii: "]"), 10]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact text.
    public func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.appendASCII("null")
        case .bool(let value): value ? bytes.appendASCII("true") : bytes.appendASCII("false")
        case .integer(let value): bytes.appendInteger(value)
        case .number(let value):
            if value.isFinite { bytes.appendNumber(value) } else { bytes.appendASCII("null") }
        case .string(let value): bytes.appendJSONString(value)
        case .verbatim(let text): bytes.append(contentsOf: text.utf8)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.appendJSONString(member.key)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

extension Array where Element == UInt8 {
    /// A JSON string literal with the escapes RFC 8259 requires.
    package mutating func appendJSONString(_ text: String) {
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
}
