import SondeAccounts

/// The account operations the screens need, over the `AuthenticationService` the commands
/// use: sessions are values (the cookie's secret), and failed-login locks key on the
/// client's address.
struct WebAccounts: Sendable {
    let service: any AuthenticationService

    /// Creates an account and signs it in.
    func register(email: String, password: String, client: String) async throws -> WebSession {
        WebSession(try await service.register(email: email, password: password, client: client))
    }

    func login(email: String, password: String, client: String) async throws -> WebSession {
        WebSession(try await service.login(email: email, password: password, client: client))
    }

    /// Ends the session in the store; an unknown or expired token is not an error.
    func logout(token: String) async throws {
        try await service.logout(session: token)
    }

    /// The account of an unexpired session, or nil.
    func account(token: String) async throws -> Account? {
        try await service.account(session: token)
    }

    func requestPasswordReset(email: String) async throws {
        try await service.requestPasswordReset(email: email)
    }

    /// Sets a new password and ends every session of the user but `keepingSession`.
    func resetPassword(token: String, newPassword: String, keepingSession: String?) async throws -> Account {
        try await service.resetPassword(token: token, newPassword: newPassword, keepingSession: keepingSession)
    }
}
