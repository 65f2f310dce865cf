import Foundation
public import SondeCapture

extension LiveValues {
    /// `accel_x rms 0.61 kurtosis 3.2 | accel_y ...` from the newest window (four columns):
    /// the line `sonde measure` redraws on a terminal while it records.
    public var statusLine: String {
        guard channels.contains(where: { !$0.values.isEmpty }) else { return "waiting for the first window…" }
        return channels.map { channel in
            let values = zip(columns.prefix(4), channel.values).map { title, value in
                "\(title) \(String(format: "%.4g", value))"
            }
            return ([channel.name] + values).joined(separator: " ")
        }.joined(separator: " | ")
    }
}
