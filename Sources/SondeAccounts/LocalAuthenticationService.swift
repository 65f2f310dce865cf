/// Accounts over a `UserSessionStore`: scrypt password hashes, hashed session tokens,
/// reset tokens through a `PasswordResetMailer`, and failed-login locks keyed on the email
/// and the client. It keeps no client state: sessions are values its callers hold.
public struct LocalAuthenticationService: AuthenticationService {
    let store: any UserSessionStore
    let mailer: any PasswordResetMailer
    let hasher: PasswordHasher
    let policy: AccountPolicy
    let now: @Sendable () -> Double

    /// - Parameter now: seconds since 1970 (tests move it to expire sessions and end locks).
    public init(
        store: any UserSessionStore, mailer: any PasswordResetMailer, hasher: PasswordHasher = PasswordHasher(),
        policy: AccountPolicy = AccountPolicy(), now: @escaping @Sendable () -> Double = WallClock.now
    ) {
        self.store = store
        self.mailer = mailer
        self.hasher = hasher
        self.policy = policy
        self.now = now
    }

    public func register(email: String, password: String, client: String) async throws -> UserSession {
        let typed = AccountPolicy.trimmed(email: email)
        let email = AccountPolicy.normalize(email: email)
        guard !email.isEmpty, !password.isEmpty else { throw AccountError.missingFields }
        guard AccountPolicy.isValid(email: email) else { throw AccountError.invalidEmail(email) }
        try policy.checkNewPassword(password)
        // Hashed before the address is looked up: telling a known address then costs what a
        // login guess does, so the answer cannot be used to list accounts quickly.
        let hash = try await hasher.hash(password)
        // Checked before inserting only to skip a doomed write; createUser's unique index decides.
        guard try await store.user(email: email) == nil else { throw AccountError.emailTaken(email) }
        let account = try await store.createUser(email: email, passwordHash: hash, createdAt: now())
        return try await startSession(for: account, typed: typed)
    }

    public func login(email: String, password: String, client: String) async throws -> UserSession {
        let typed = AccountPolicy.trimmed(email: email)
        let email = AccountPolicy.normalize(email: email)
        guard !email.isEmpty, !password.isEmpty else { throw AccountError.missingFields }
        if let failures = try await store.loginFailures(email: email, source: client),
            let remaining = policy.lockRemaining(failures, now: now())
        {
            // Not even looked at: a locked account cannot be brute-forced.
            throw AccountError.locked(failures: failures.count, retryAfter: remaining)
        }
        let stored = try await store.user(email: email)
        // An unknown email costs one hash too, so timing does not tell which emails exist.
        let matches = try await hasher.verify(password, against: stored?.passwordHash ?? dummyHash())
        guard let stored, matches else {
            let failures = try await store.recordLoginFailure(email: email, source: client, at: now())
            if let remaining = policy.lockRemaining(failures, now: now()) {
                throw AccountError.locked(failures: failures.count, retryAfter: remaining)
            }
            throw AccountError.invalidCredentials
        }
        try await store.clearLoginFailures(email: email, source: client)
        if hasher.needsRehash(stored.passwordHash) {
            try await store.updatePasswordHash(user: stored.account.id, passwordHash: hasher.hash(password))
        }
        return try await startSession(for: stored.account, typed: typed)
    }

    public func logout(session token: String) async throws {
        try await store.deleteSession(tokenHash: SecretToken.hash(token))
    }

    public func account(session token: String) async throws -> Account? {
        try await store.account(sessionTokenHash: SecretToken.hash(token), now: now())
    }

    public func requestPasswordReset(email: String) async throws {
        let email = AccountPolicy.normalize(email: email)
        guard !email.isEmpty else { throw AccountError.missingFields }
        guard AccountPolicy.isValid(email: email) else { throw AccountError.invalidEmail(email) }
        guard let user = try await store.user(email: email) else { return }
        let token = SecretToken.random()
        let issued = now()
        let expires = issued + policy.resetTokenLifetime
        try await store.createResetToken(
            tokenHash: token.hash, user: user.account.id, createdAt: issued, expiresAt: expires)
        try await mailer.sendPasswordReset(to: user.account.email, token: token.text, expiresAt: expires)
    }

    public func resetPassword(token: String, newPassword: String, keepingSession: String?) async throws -> Account {
        let token = String(token.trimmingWhitespace())
        guard !token.isEmpty, !newPassword.isEmpty else { throw AccountError.missingFields }
        try policy.checkNewPassword(newPassword)
        let tokenHash = SecretToken.hash(token)
        // Cheap check first, so a wrong token costs no scrypt; the transaction below re-checks.
        guard try await store.isValidResetToken(tokenHash: tokenHash, now: now()) else {
            throw AccountError.invalidResetToken
        }
        let hash = try await hasher.hash(newPassword)
        guard
            let account = try await store.completePasswordReset(
                tokenHash: tokenHash, passwordHash: hash, now: now(),
                keepingSession: keepingSession.map(SecretToken.hash)
            )
        else { throw AccountError.invalidResetToken }
        // The owner proved it: every source's lock on the email ends.
        try await store.clearLoginFailures(email: account.email, source: nil)
        return account
    }

    /// Stores a new session's hash and hands its token to the caller.
    /// - Parameter typed: the address as the user typed it (trimmed), kept with the session.
    private func startSession(for account: Account, typed: String) async throws -> UserSession {
        let token = SecretToken.random()
        let created = now()
        let expires = created + policy.sessionLifetime
        try await store.createSession(
            tokenHash: token.hash, user: account.id, emailAsTyped: typed, createdAt: created, expiresAt: expires)
        var account = account
        account.emailAsTyped = typed
        return UserSession(token: token.text, account: account, expiresAt: expires)
    }

    /// A well-formed hash with the current cost that no password matches: an unknown
    /// address costs a login the same time as a known one.
    private func dummyHash() -> String { hasher.unmatchableHash() }
}
