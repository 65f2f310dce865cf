/// One client that keeps one session between runs: the CLI with its session file.
///
/// The `AuthenticationService` hands sessions out as values; this type is where the CLI
/// keeps its one: login saves the token (and revokes the one held before, so an old
/// session is not left valid in the store), logout revokes and removes it, and
/// `requireAccount()` reads it back.
public struct SessionFileClient: Sendable {
    public let service: any AuthenticationService
    public let credentials: any SessionCredentialStore
    /// The key of this client's failed-login locks (`LoginSource.current`).
    public let client: String

    public init(
        service: any AuthenticationService, credentials: any SessionCredentialStore,
        client: String = LoginSource.current
    ) {
        self.service = service
        self.credentials = credentials
        self.client = client
    }

    /// Creates an account and keeps its new session.
    /// - Throws: as `AuthenticationService.register`.
    @discardableResult
    public func register(email: String, password: String) async throws -> Account {
        try await keep(service.register(email: email, password: password, client: client))
    }

    /// Logs in and keeps the session; a failed login leaves the session held before alone.
    /// - Throws: as `AuthenticationService.login`.
    @discardableResult
    public func login(email: String, password: String) async throws -> Account {
        try await keep(service.login(email: email, password: password, client: client))
    }

    /// Revokes the held session in the store and forgets it here.
    /// - Throws: `AccountError.notLoggedIn` when no session is held.
    public func logout() async throws {
        guard let token = try credentials.load() else { throw AccountError.notLoggedIn }
        try await service.logout(session: token)
        try credentials.remove()
    }

    /// The held session's account, or nil (none held, or it expired or was revoked).
    public func currentAccount() async throws -> Account? {
        guard let token = try credentials.load() else { return nil }
        guard let account = try await service.account(session: token) else {
            // Expired or revoked elsewhere (a password reset): the saved copy is useless.
            try credentials.remove()
            return nil
        }
        return account
    }

    /// The held session's account.
    /// - Throws: `AccountError.notLoggedIn`.
    public func requireAccount() async throws -> Account {
        guard let account = try await currentAccount() else { throw AccountError.notLoggedIn }
        return account
    }

    /// Sets a new password; the held session (if any) stays, the user's others end.
    /// - Throws: as `AuthenticationService.resetPassword`.
    public func resetPassword(token: String, newPassword: String) async throws -> Account {
        try await service.resetPassword(token: token, newPassword: newPassword, keepingSession: credentials.load())
    }

    private func keep(_ session: UserSession) async throws -> Account {
        if let previous = try credentials.load(), previous != session.token {
            try await service.logout(session: previous)
        }
        try credentials.save(session.token)
        return session.account
    }
}
