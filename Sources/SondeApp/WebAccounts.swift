import SondeAccounts
import Synchronization

/// The account operations the screens need, for a session passed in (the cookie's
/// secret) rather than one client per process.
///
/// Over today's `LocalAuthenticationService`, which keeps its session in a
/// `SessionCredentialStore`: each call gets a service whose credential store is that one
/// request's token, so two browsers never share one.
struct WebAccounts: Sendable {
    let store: any UserSessionStore
    let mailer: any PasswordResetMailer
    let hasher: PasswordHasher
    let policy: AccountPolicy

    /// Creates an account and signs it in.
    func register(email: String, password: String, client: String) async throws -> WebSession {
        let credentials = RequestCredentials(token: nil)
        let account = try await service(credentials, client: client).register(email: email, password: password)
        return try session(account, credentials)
    }

    func login(email: String, password: String, client: String) async throws -> WebSession {
        let credentials = RequestCredentials(token: nil)
        let account = try await service(credentials, client: client).login(email: email, password: password)
        return try session(account, credentials)
    }

    /// Ends the session in the store; an unknown or expired token is not an error.
    func logout(token: String) async throws {
        do {
            try await service(RequestCredentials(token: token), client: "web").logout()
        } catch let error as AccountError where error.code == .notLoggedIn {}
    }

    /// The account of an unexpired session, or nil.
    func account(token: String) async throws -> Account? {
        try await service(RequestCredentials(token: token), client: "web").currentAccount()
    }

    func requestPasswordReset(email: String) async throws {
        try await service(RequestCredentials(token: nil), client: "web").requestPasswordReset(email: email)
    }

    /// Sets a new password and ends every session of the user but `keepingSession`.
    func resetPassword(token: String, newPassword: String, keepingSession: String?) async throws -> Account {
        try await service(RequestCredentials(token: keepingSession), client: "web")
            .resetPassword(token: token, newPassword: newPassword)
    }

    /// A service acting for one request's credentials.
    func service(_ credentials: RequestCredentials, client: String) -> LocalAuthenticationService {
        LocalAuthenticationService(
            store: store, credentials: credentials, mailer: mailer, hasher: hasher, policy: policy, source: client)
    }

    private func session(_ account: Account, _ credentials: RequestCredentials) throws -> WebSession {
        guard let token = try credentials.load() else { throw AccountError.notLoggedIn }
        return WebSession(token: token, account: account)
    }
}

/// One request's session token, as a `SessionCredentialStore`: what the service saves at
/// login is read back into the cookie.
final class RequestCredentials: SessionCredentialStore {
    private let token: Mutex<String?>

    init(token: String?) {
        self.token = Mutex(token)
    }

    func load() throws -> String? { token.withLock { $0 } }
    func save(_ token: String) throws { self.token.withLock { $0 = token } }
    func remove() throws { token.withLock { $0 = nil } }
}
