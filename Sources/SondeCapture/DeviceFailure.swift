import Foundation
import SondeCore

/// How the paired device last failed mid-capture (unplugged, a command that exited): Main
/// shows it as disconnected until a later capture starts on it (issue 46).
///
/// The capture that failed keeps what it recorded (a draft); this is the device's side of
/// the story, for every user's Main, not only the owner's draft.
public struct DeviceFailure: Sendable, Equatable {
    /// The device that failed; a different pairing since then makes this stale.
    public var deviceID: String
    /// The error on one line: `the command `…` exited with status 3 before the capture ended: …`.
    public var message: String
    /// When it failed, seconds since 1970.
    public var at: Double

    public init(deviceID: String, message: String, at: Double) {
        self.deviceID = deviceID
        self.message = message
        self.at = at
    }

    /// `error`'s message on one line (a command's stderr may hold several); a
    /// `SondeError`'s message without its code.
    public init(deviceID: String, error: any Error, at: Double) {
        let text = (error as? SondeError)?.message ?? String(describing: error)
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        self.init(deviceID: deviceID, message: line, at: at)
    }
}
