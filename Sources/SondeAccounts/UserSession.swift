/// A signed-in session: the secret the client keeps (a cookie, or the CLI's session file)
/// and the account it belongs to.
///
/// A value, not state of the service, so one process can serve many clients at once.
public struct UserSession: Sendable, Equatable {
    /// The secret (64 hex digits); the store keeps only its SHA-256.
    public var token: String
    public var account: Account
    /// Seconds since 1970.
    public var expiresAt: Double

    public init(token: String, account: Account, expiresAt: Double) {
        self.token = token
        self.account = account
        self.expiresAt = expiresAt
    }
}
