import SondePlots

/// Markup built by string interpolation that escapes every interpolated value unless it is
/// `HTML` itself: a screen cannot forget to escape an email or a comment, the compiler sees
/// to it (why not swift-mustache: the templates stay Swift, type-checked, with no resource
/// bundle to ship or find at run time).
struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var text: String

    init(stringLiteral value: String) {
        text = value
    }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    /// Markup that is already safe (from another `HTML`, or SondePlots' escaped SVG).
    init(trusted: String) {
        text = trusted
    }

    var description: String { text }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Text: escaped for an element's content and a quoted attribute alike.
        mutating func appendInterpolation(_ value: some StringProtocol) {
            text += MarkupText.escaped(String(value))
        }

        mutating func appendInterpolation(_ value: Int) {
            text += String(value)
        }

        mutating func appendInterpolation(_ markup: HTML) {
            text += markup.text
        }

        mutating func appendInterpolation(_ parts: [HTML]) {
            for part in parts { text += part.text }
        }

        mutating func appendInterpolation(_ markup: HTML?) {
            if let markup { text += markup.text }
        }
    }
}
