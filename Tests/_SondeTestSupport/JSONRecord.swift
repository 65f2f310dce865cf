import Foundation

/// A record decoded from sonde's JSON or NDJSON output. Decoded with `JSONDecoder`, which
/// reads numbers exactly (Foundation's `JSONSerialization` on Linux does not always).
public struct JSONRecord: Decodable, Sendable {
    public enum Value: Decodable, Equatable, Sendable {
        case number(Double)
        case text(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        public var number: Double? {
            if case .number(let value) = self { return value }
            return nil
        }

        public var text: String? {
            if case .text(let value) = self { return value }
            return nil
        }
    }

    public var fields: [String: Value]

    public init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([String: Value].self)
    }

    public subscript(key: String) -> Value? { fields[key] }

    /// One object per line.
    public static func decodeLines(_ text: String) throws -> [JSONRecord] {
        try text.split(separator: "\n").map { try JSONDecoder().decode(JSONRecord.self, from: Data($0.utf8)) }
    }

    /// One array of objects.
    public static func decodeArray(_ text: String) throws -> [JSONRecord] {
        try JSONDecoder().decode([JSONRecord].self, from: Data(text.utf8))
    }
}
