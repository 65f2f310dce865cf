public import SondeAccounts
public import SondeMeasurements

/// A capture that ended without being saved (stopped, at its time limit, at its owner's
/// logout, or by a device failure): kept, on disk, until its owner saves or discards it,
/// so no measurement is lost to a closed tab or a restart (issue 44).
public struct CaptureDraft: Sendable, Equatable {
    /// The capture's id (`LiveCapture.id`): 32 hex digits.
    public var id: String
    public var owner: UserID
    /// What a save stores, but the comment.
    public var capture: MeasurementCapture
    /// Windows per channel recorded.
    public var frames: Int
    /// When the recording ended, seconds since 1970.
    public var endedAt: Double
    /// Why it ended, as a screen says it: "stopped", "the 10-minute limit", ...
    public var reason: String

    public init(
        id: String, owner: UserID, capture: MeasurementCapture, frames: Int, endedAt: Double, reason: String
    ) {
        self.id = id
        self.owner = owner
        self.capture = capture
        self.frames = frames
        self.endedAt = endedAt
        self.reason = reason
    }

    /// Whether `text` can be a draft's id: 32 lower-case hex digits (so an id from a URL
    /// can never name a path outside the drafts' folder).
    public static func isValidID(_ text: String) -> Bool {
        text.utf8.count == 32
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
