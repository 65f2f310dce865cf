import Foundation
import SondeCore

enum BenchValue {
    case number(Double)
    case integer(Int)

    var text: String {
        switch self {
        case .integer(let value): String(value)
        case .number(let value) where abs(value) >= 1e5: String(format: "%.4g", value)
        case .number(let value): String(format: "%.4f", value)
        }
    }

    var json: JSONValue {
        switch self {
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        }
    }
}
