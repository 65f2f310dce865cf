import Foundation
public import SondeInstruments

/// `sonde device list`'s table: each ALSA capture device with its card, name, and what it
/// accepts (or why it cannot be used now), in columns two spaces apart, the last unpadded.
public enum DeviceTable {
    /// The lines to print, the header first; nil when there is no device.
    public static func lines(_ devices: [ALSADeviceInfo]) -> [String]? {
        guard !devices.isEmpty else { return nil }
        var rows = [["DEVICE", "CARD", "NAME", "ACCEPTS"]]
        for device in devices {
            let accepts: String
            switch device.availability {
            case .available(let capabilities): accepts = capabilities.description
            case .busy: accepts = "busy (another program has it open)"
            case .unavailable(let reason): accepts = "unavailable: \(reason)"
            }
            rows.append([device.pcm, device.cardName, device.pcmName, accepts])
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
