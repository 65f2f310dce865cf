import Foundation

/// Numbers as a report's tables print them: four significant digits, enough to read and
/// compare, where the records keep full precision.
enum ReportNumber {
    static func text(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        if value == 0 { return "0" }
        return String(format: "%.4g", value)
    }
}
