/// What accounts need from a database: users, sessions, reset tokens and failed-login
/// counts. SQLite (`SondeStore.SQLiteUserSessionStore`) is the embedded default; a
/// networked backend implements the same protocol.
///
/// Secrets never reach a store: sessions and reset tokens are known only by their SHA-256
/// (`tokenHash`), passwords only as an encoded scrypt hash. Times are seconds since 1970.
public protocol UserSessionStore: Sendable {
    /// - Throws: `AccountError.emailTaken` when the (normalised) email has an account.
    func createUser(email: String, passwordHash: String, createdAt: Double) async throws -> Account
    /// The account with this normalised email, with its encoded password hash.
    func user(email: String) async throws -> StoredUser?

    /// - Parameter emailAsTyped: the address as typed at the login or registration, kept
    ///   with the session for its greetings (`Account.emailAsTyped`).
    func createSession(
        tokenHash: [UInt8], user: UserID, emailAsTyped: String?, createdAt: Double, expiresAt: Double
    ) async throws
    /// The account of an unexpired session, or nil; its `emailAsTyped` is the session's.
    func account(sessionTokenHash: [UInt8], now: Double) async throws -> Account?
    func deleteSession(tokenHash: [UInt8]) async throws
    /// Replaces a password hash (a stronger one after a login, say); sessions stay.
    func updatePasswordHash(user: UserID, passwordHash: String) async throws

    func createResetToken(tokenHash: [UInt8], user: UserID, createdAt: Double, expiresAt: Double) async throws
    /// Whether a reset token is known, unused and unexpired, without using it.
    func isValidResetToken(tokenHash: [UInt8], now: Double) async throws -> Bool
    /// In one transaction: uses the token (if still valid), sets the new password hash,
    /// voids the user's other reset tokens and ends every session of the user but
    /// `keepingSession`. Returns nil (and changes nothing) for an invalid token.
    func completePasswordReset(
        tokenHash: [UInt8], passwordHash: String, now: Double, keepingSession: [UInt8]?
    ) async throws -> Account?

    /// Failed logins for `email` from `source` (`LoginSource`): a lock is per email and
    /// source, so failures from elsewhere never lock the owner out.
    func loginFailures(email: String, source: String) async throws -> LoginFailures?
    /// Adds one failure atomically (two processes failing at once count two).
    func recordLoginFailure(email: String, source: String, at time: Double) async throws -> LoginFailures
    /// Forgets the failures of `email` from `source`, or from every source when nil.
    func clearLoginFailures(email: String, source: String?) async throws
}

/// An account with its encoded password hash, as only the authentication service sees it.
public struct StoredUser: Sendable, Equatable {
    public var account: Account
    public var passwordHash: String

    public init(account: Account, passwordHash: String) {
        self.account = account
        self.passwordHash = passwordHash
    }
}
