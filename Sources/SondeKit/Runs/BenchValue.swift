import Foundation
public import SondeCore

/// One figure of `sonde bench`'s report, with how it is printed.
public enum BenchValue: Sendable, Equatable {
    case number(Double)
    case integer(Int)
    /// A share of a whole, printed to three places (`serial share: 0.012`).
    case fraction(Double)

    public var text: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value) where abs(value) >= 1e5: String(format: "%.4g", value)
        case .number(let value): String(format: "%.4f", value)
        case .fraction(let value): String(format: "%.3f", value)
        }
    }

    public var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .number(let value), .fraction(let value): .number(value)
        }
    }
}
