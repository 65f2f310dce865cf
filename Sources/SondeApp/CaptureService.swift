import SondeAccounts
import SondeCapture
import SondePipeline

/// What the screens ask of the lab's device and its captures: pair it, tell who measures,
/// start and stop a user's capture, draw its trends, keep what ends unsaved as a draft.
/// `InstrumentCaptures` does it on the shared `Instrument`; the screens see only this, so a
/// test can stand in a fake where a real (or simulated) device is impractical.
protocol CaptureService: Sendable {
    /// The unsaved measurements: captures that ended without a save.
    var drafts: CaptureDrafts { get }

    /// Connects the device and remembers it (Main's Pair with device).
    /// - Throws: `SondeError(.busy)` during a capture; `.invalidInput` for a bad profile.
    func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice
    /// The paired device, if any.
    func paired() throws -> PairedDevice?
    /// Free, busy (with whom), disconnected, or none paired.
    func status() throws -> InstrumentStatus

    /// Starts a capture for `account`, or gives back the one it runs already (another tab).
    /// - Throws: `SondeError(.busy)` while another user measures or `account` has too many
    ///   drafts; `.invalidArgument` when no device is paired.
    func start(for account: Account) throws -> LiveCapture
    /// The capture `account` records now, if any.
    func capture(for account: Account) -> LiveCapture?
    /// Whether capture `id` of `owner` ended and is being kept as a draft right now.
    func isBeingKept(_ id: String, for owner: UserID) -> Bool
    /// Ends `capture` (when it still records) and keeps it as a draft.
    /// - Parameter reason: what the draft says ended it ("stopped", "logout").
    func stop(_ capture: LiveCapture, reason: String) async throws -> CaptureDraft
    /// Ends every capture still recording and keeps each as a draft (the server stops).
    func stopAll(reason: String) async
    /// Adds the newest values to the trends and keeps every capture that ended by itself
    /// (its limit, a device failure) as a draft; `CaptureTick` calls it every `trendStep`.
    func tick() async

    /// The columns drawn as trends (indices into the capture's columns).
    func trendColumns(of capture: LiveCapture) -> [Int]
    /// The trend of trend column `slot` on `channel`, as SVG; nil for no such trend.
    func trendSVG(of capture: LiveCapture, slot: Int, channel: Int) -> String?
}
