/// Where a client keeps its session token between commands (`SessionFileClient`).
public protocol SessionCredentialStore: Sendable {
    /// The saved token, or nil.
    func load() throws -> String?
    /// Replaces the saved token.
    func save(_ token: String) throws
    /// Forgets the token; nothing happens if there is none.
    func remove() throws
}

/// Where password-reset tokens are sent. `OutboxMailer` writes them to files.
public protocol PasswordResetMailer: Sendable {
    /// - Parameters:
    ///   - email: the account's address.
    ///   - token: the secret the user passes to `sonde reset-password --token`.
    ///   - expiresAt: seconds since 1970.
    func sendPasswordReset(to email: String, token: String, expiresAt: Double) async throws
}
