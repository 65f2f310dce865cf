/// Register, log in and out, recover a password: the account side of the app's flow.
///
/// `LocalAuthenticationService` is the implementation over a `UserSessionStore`. A session
/// is a value the caller keeps (`UserSession.token`) and passes back, so one service serves
/// any number of clients: the web app keeps the token in a cookie, the CLI in its session
/// file through `SessionFileClient`.
public protocol AuthenticationService: Sendable {
    /// Creates an account and starts a session (the web's Register screen).
    /// - Parameter client: who asks, as for `login`.
    /// - Throws: `AccountError` `.missingFields`, `.invalidEmail`, `.weakPassword`, `.emailTaken`, `.busy`.
    func register(email: String, password: String, client: String) async throws -> UserSession

    /// Starts a session.
    /// - Parameter client: keys failed-login locks with the email (`LoginSource.current` for
    ///   the CLI, "web 127.0.0.1" for the app), so one client's guesses lock out only itself.
    /// - Throws: `AccountError` `.missingFields`, `.invalidCredentials` (unknown email and
    ///   wrong password alike), `.locked`, `.busy`.
    func login(email: String, password: String, client: String) async throws -> UserSession

    /// Revokes the session; an unknown or expired token is not an error.
    func logout(session token: String) async throws

    /// The account of an unexpired session, or nil (unknown, expired or revoked).
    func account(session token: String) async throws -> Account?

    /// Sends a single-use reset token to the account's email, if there is such an account;
    /// returns the same way either way.
    /// - Throws: `AccountError` `.missingFields`, `.invalidEmail` (form only).
    func requestPasswordReset(email: String) async throws

    /// Sets a new password with a token from `requestPasswordReset`, and ends every session
    /// of the user but `keepingSession` (the caller's own, if any).
    /// - Throws: `AccountError` `.missingFields`, `.weakPassword`, `.invalidResetToken`, `.busy`.
    func resetPassword(token: String, newPassword: String, keepingSession: String?) async throws -> Account
}
