import Foundation

extension Double {
    /// At most `count` significant digits, trailing zeros dropped (1797, 29.95, 0.3983): the
    /// short form the diagnosis prints its frequencies and multiples in.
    public func significantDigits(_ count: Int) -> String {
        String(format: "%.*g", count, self)
    }
}
