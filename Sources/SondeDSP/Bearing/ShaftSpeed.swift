import Foundation

/// The rotation speed of the shaft a bearing sits on: every defect frequency is a multiple of it.
public struct ShaftSpeed: Sendable, Hashable, CustomStringConvertible {
    /// Revolutions per second (Hz), finite and > 0.
    public let hertz: Double

    /// Revolutions per minute.
    public var rpm: Double { hertz * 60 }

    /// - Precondition: `hertz` is finite and > 0.
    public init(hertz: Double) {
        precondition(hertz.isFinite && hertz > 0, "ShaftSpeed: \(hertz) Hz is not a positive number")
        self.hertz = hertz
    }

    /// Parses `1797rpm`, `29.95hz` (unit case-insensitive, spaces allowed around the number).
    /// - Throws: `BearingError.invalidShaftSpeed` for a missing unit, a number that is not
    ///   finite and positive, or anything else.
    public init(parsing text: String) throws(BearingError) {
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        let perMinute: Bool
        let number: Substring
        if lowered.hasSuffix("rpm") {
            perMinute = true
            number = lowered.dropLast(3)
        } else if lowered.hasSuffix("hz") {
            perMinute = false
            number = lowered.dropLast(2)
        } else {
            throw .invalidShaftSpeed(text)
        }
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
            throw .invalidShaftSpeed(text)
        }
        self.init(hertz: perMinute ? value / 60 : value)
    }

    public var description: String {
        "\(rpm.significantDigits(6)) rpm (\(hertz.significantDigits(6)) Hz)"
    }
}
