import CSystemCalls
import Foundation
import SondeCore
public import SondeMeasurements

/// How saved measurements read on a terminal.
public enum MeasurementText {
    public static func details(_ measurement: SavedMeasurement) -> [String] {
        var lines = [
            "Measurement \(measurement.id)",
            "Recorded:  \(UTCTimestamp.rfc3339(epochSeconds: measurement.recordedAt))",
            "Device:    \(measurement.deviceID)",
            "Comment:   \(measurement.comment.isEmpty ? "(none)" : measurement.comment)",
            "Settings:  \(measurement.settings)",
            "Records:   \(measurement.frameCount) windows × \(measurement.channelNames.count) channels\(timing(measurement))",
        ]
        guard measurement.frameCount > 0 else { return lines + ["Mean:      (no complete window)"] }
        lines.append("Mean per channel:")
        var rows = [["  column"] + measurement.summary.channels.map(\.name)]
        for (index, column) in measurement.summary.columns.enumerated() {
            rows.append(["  " + column] + measurement.summary.channels.map { number($0.means[index]) })
        }
        return lines + aligned(rows)
    }

    private static func timing(_ measurement: SavedMeasurement) -> String {
        guard let hop = measurement.hop, let clock = measurement.clock else { return "" }
        switch clock {
        case .seconds(let rate, _): return " (\(rate.compactDescription) Hz, hop \(hop))"
        case .wallClock(let rate, let epoch):
            return
                " (\(rate.compactDescription) Hz, hop \(hop), first sample \(UTCTimestamp.rfc3339(epochSeconds: epoch)))"
        }
    }

    /// Four significant digits: enough to compare runs at a glance; exports keep every digit.
    /// C's `%.4g` (`sonde_format_4g`, its fast equal), called directly: Foundation's
    /// `String(format:)` was a tenth of a 10,000-line listing's time.
    public static func number(_ value: Double) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let start = characters.baseAddress else { return 0 }
                return max(0, Int(sonde_format_4g(start, 32, value)))
            }
        }
    }

    /// `number(value)`'s bytes appended to `bytes`, without a string between.
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            guard let start = buffer.baseAddress else { return }
            let length = max(0, Int(sonde_format_4g(start, 32, value)))
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: length))
        }
    }

    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                // The last cell is not padded: no trailing spaces.
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

public enum MeasurementIDText {
    public static func parse(_ text: String) -> MeasurementID? {
        MeasurementID(text)
    }

    public static func require(_ text: String) throws -> MeasurementID {
        guard let id = MeasurementID(text) else {
            throw SondeError(.invalidArgument, "ID '\(text)': expected a positive whole number")
        }
        return id
    }
}
