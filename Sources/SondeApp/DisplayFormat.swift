import Foundation
import SondeCore

/// How the screens write times and values: UTC times a person reads at a glance, values
/// to four significant digits (the saved data keeps every digit; export has them).
enum DisplayFormat {
    /// `2026-11-26 15:04:05 UTC`.
    static func time(_ seconds: Double) -> String {
        let text = UTCTimestamp.rfc3339(epochSeconds: seconds)
        let date = text.prefix(10)
        let clock = text.dropFirst(11).prefix(8)
        return "\(date) \(clock) UTC"
    }

    static func value(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        let magnitude = abs(value)
        if magnitude != 0 && (magnitude < 0.001 || magnitude >= 1e6) { return String(format: "%.3e", value) }
        return Double(String(format: "%.4g", value))?.compactDescription ?? String(format: "%.4g", value)
    }

    /// `1:05`: minutes and seconds.
    static func elapsed(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }

    /// `45 s`, `2 minutes`: how long until a limit lets someone try again.
    static func wait(_ seconds: Int) -> String {
        if seconds < 120 { return "\(max(1, seconds)) s" }
        return "\((seconds + 59) / 60) minutes"
    }

    /// `10-minute` for 600 s, `90-second` for 90 s: a time limit as a sentence names it.
    static func minutes(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds.rounded()))
        return whole % 60 == 0 ? "\(whole / 60)-minute" : "\(whole)-second"
    }
}
