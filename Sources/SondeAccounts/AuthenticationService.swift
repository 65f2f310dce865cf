/// Register, log in and out, recover a password: the account side of the app's flow.
///
/// `LocalAuthenticationService` is the implementation over a `UserSessionStore`; the
/// commands see only this protocol, so tests can substitute it and a networked backend
/// can be added later. "Logged in" is a property of the client: the service keeps the
/// session token in its `SessionCredentialStore`.
public protocol AuthenticationService: Sendable {
    /// Creates an account and logs it in.
    /// - Throws: `AccountError` `.missingFields`, `.invalidEmail`, `.weakPassword`, `.emailTaken`.
    func register(email: String, password: String) async throws -> Account

    /// Creates an account without telling whether the address already had one (`sonde
    /// register`): the same return either way, and a message to the address: a welcome,
    /// or "you already have an account" (as `requestPasswordReset` answers alike). No
    /// session starts; the user logs in next.
    /// - Throws: `AccountError` `.missingFields`, `.invalidEmail`, `.weakPassword` (form only).
    func signUp(email: String, password: String) async throws

    /// - Throws: `AccountError` `.missingFields`, `.invalidCredentials` (unknown email and
    ///   wrong password alike), `.locked`.
    func login(email: String, password: String) async throws -> Account

    /// Revokes the client's session in the store and forgets it on the client.
    /// - Throws: `AccountError.notLoggedIn` when the client holds no session.
    func logout() async throws

    /// The logged-in account, or nil (no session, or it expired or was revoked).
    func currentAccount() async throws -> Account?

    /// Sends a single-use reset token to the account's email, if there is such an account;
    /// returns the same way either way.
    /// - Throws: `AccountError` `.missingFields`, `.invalidEmail` (form only).
    func requestPasswordReset(email: String) async throws

    /// Sets a new password with a token from `requestPasswordReset`, and ends the user's
    /// other sessions.
    /// - Throws: `AccountError` `.missingFields`, `.weakPassword`, `.invalidResetToken`.
    func resetPassword(token: String, newPassword: String) async throws -> Account
}

extension AuthenticationService {
    /// The logged-in account.
    /// - Throws: `AccountError.notLoggedIn`.
    public func requireAccount() async throws -> Account {
        guard let account = try await currentAccount() else { throw AccountError.notLoggedIn }
        return account
    }
}
