public import SondeAccounts

/// What the lab's one device is doing, for every user's Main screen.
public enum InstrumentStatus: Sendable, Equatable {
    /// No device is paired.
    case notConnected
    /// Paired and free: a capture may start.
    case idle(deviceID: String)
    /// Paired, free, and its last capture ended in `failure` (unplugged, its command
    /// exited): shown until a capture starts on it again, which may (it was plugged back).
    case disconnected(deviceID: String, failure: DeviceFailure)
    /// `user` has been capturing since `since` (seconds since 1970); others must wait.
    case busy(deviceID: String, user: Account, since: Double)
}
