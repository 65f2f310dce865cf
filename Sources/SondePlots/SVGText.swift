import Foundation

/// Spelling numbers and text for SVG markup (and the report's HTML around it).
package enum SVGText {
    /// A coordinate to 0.1 px: enough for any screen, and a tenth of the bytes of full digits.
    static func coordinate(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e12 else { return "0" }
        let whole = Int(tenths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = whole.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// A value for a tick label or a marker: at most four significant digits, no trailing
    /// zeros, exponent form outside 1e-3...1e6 (`1000`, `12.5`, `0.25`, `1e-06`).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        if magnitude >= 1e6 || magnitude < 1e-3 {
            let exponent = Int(log10(magnitude).rounded(.down))
            let mantissa = value / pow(10, Double(exponent))
            let m = number(mantissa)
            return m == "1" ? "1e\(exponent)" : (m == "-1" ? "-1e\(exponent)" : "\(m)e\(exponent)")
        }
        let digits = Swift.max(0, 3 - Int(log10(magnitude).rounded(.down)))
        let scale = pow(10, Double(digits))
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.contains("."), !text.contains("e") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
