import SondeAccounts
import Synchronization

/// A `UserSessionStore` in memory: the service's rules tested without SQLite.
final class InMemoryUserSessionStore: UserSessionStore {
    struct Session {
        var user: UserID
        var expiresAt: Double
        var emailAsTyped: String?
    }
    struct ResetToken {
        var user: UserID
        var expiresAt: Double
        var used: Bool
    }
    struct State {
        var users: [StoredUser] = []
        var sessions: [[UInt8]: Session] = [:]
        var resetTokens: [[UInt8]: ResetToken] = [:]
        /// By email, then source.
        var failures: [String: [String: LoginFailures]] = [:]
    }

    let state = Mutex(State())

    func createUser(email: String, passwordHash: String, createdAt: Double) async throws -> Account {
        try state.withLock { state in
            guard !state.users.contains(where: { $0.account.email == email }) else {
                throw AccountError.emailTaken(email)
            }
            let account = Account(id: UserID(Int64(state.users.count + 1)), email: email)
            state.users.append(StoredUser(account: account, passwordHash: passwordHash))
            return account
        }
    }

    func user(email: String) async throws -> StoredUser? {
        state.withLock { $0.users.first { $0.account.email == email } }
    }

    func createSession(
        tokenHash: [UInt8], user: UserID, emailAsTyped: String?, createdAt: Double, expiresAt: Double
    ) async throws {
        state.withLock {
            $0.sessions[tokenHash] = Session(user: user, expiresAt: expiresAt, emailAsTyped: emailAsTyped)
        }
    }

    func account(sessionTokenHash: [UInt8], now: Double) async throws -> Account? {
        state.withLock { state in
            guard let session = state.sessions[sessionTokenHash], session.expiresAt > now else { return nil }
            var account = state.users.first { $0.account.id == session.user }?.account
            account?.emailAsTyped = session.emailAsTyped
            return account
        }
    }

    func deleteSession(tokenHash: [UInt8]) async throws {
        _ = state.withLock { $0.sessions.removeValue(forKey: tokenHash) }
    }

    func updatePasswordHash(user: UserID, passwordHash: String) async throws {
        state.withLock { state in
            if let index = state.users.firstIndex(where: { $0.account.id == user }) {
                state.users[index].passwordHash = passwordHash
            }
        }
    }

    func createResetToken(tokenHash: [UInt8], user: UserID, createdAt: Double, expiresAt: Double) async throws {
        state.withLock { $0.resetTokens[tokenHash] = ResetToken(user: user, expiresAt: expiresAt, used: false) }
    }

    func isValidResetToken(tokenHash: [UInt8], now: Double) async throws -> Bool {
        state.withLock { state in state.resetTokens[tokenHash].map { !$0.used && $0.expiresAt > now } ?? false }
    }

    func completePasswordReset(
        tokenHash: [UInt8], passwordHash: String, now: Double, keepingSession: [UInt8]?
    ) async throws -> Account? {
        state.withLock { state in
            guard let token = state.resetTokens[tokenHash], !token.used, token.expiresAt > now,
                let index = state.users.firstIndex(where: { $0.account.id == token.user })
            else { return nil }
            for (hash, other) in state.resetTokens where other.user == token.user {
                state.resetTokens[hash]?.used = true
            }
            state.users[index].passwordHash = passwordHash
            state.sessions = state.sessions.filter { $0.value.user != token.user || $0.key == keepingSession }
            return state.users[index].account
        }
    }

    func loginFailures(email: String, source: String) async throws -> LoginFailures? {
        state.withLock { $0.failures[email]?[source] }
    }

    func recordLoginFailure(email: String, source: String, at time: Double) async throws -> LoginFailures {
        state.withLock { state in
            let count = (state.failures[email]?[source]?.count ?? 0) + 1
            let failures = LoginFailures(count: count, lastFailureAt: time)
            state.failures[email, default: [:]][source] = failures
            return failures
        }
    }

    func clearLoginFailures(email: String, source: String?) async throws {
        state.withLock { state in
            if let source {
                state.failures[email]?[source] = nil
            } else {
                state.failures[email] = nil
            }
        }
    }

    var sessionCount: Int { state.withLock { $0.sessions.count } }
    func passwordHash(of email: String) -> String? {
        state.withLock { $0.users.first { $0.account.email == email }?.passwordHash }
    }
}

/// The client's token in memory.
final class InMemoryCredentials: SessionCredentialStore {
    let token = Mutex<String?>(nil)
    func load() throws -> String? { token.withLock { $0 } }
    func save(_ token: String) throws { self.token.withLock { $0 = token } }
    func remove() throws { token.withLock { $0 = nil } }
}

/// Keeps every reset message instead of sending it.
final class RecordingMailer: PasswordResetMailer {
    struct Message: Sendable {
        var email: String
        var token: String
        var expiresAt: Double
    }
    let messages = Mutex<[Message]>([])
    func sendPasswordReset(to email: String, token: String, expiresAt: Double) async throws {
        messages.withLock { $0.append(Message(email: email, token: token, expiresAt: expiresAt)) }
    }
    var all: [Message] { messages.withLock { $0 } }
}

/// Time that tests move by hand.
final class ManualClock: Sendable {
    let seconds = Mutex<Double>(1_800_000_000)
    var now: Double { seconds.withLock { $0 } }
    func advance(_ delta: Double) { seconds.withLock { $0 += delta } }
}

/// One service with fakes behind it, and a client keeping one session (as the CLI does); a
/// cheap scrypt cost (2^10) keeps the suite fast.
struct AccountHarness {
    let store = InMemoryUserSessionStore()
    let credentials = InMemoryCredentials()
    let mailer = RecordingMailer()
    let clock = ManualClock()
    let service: LocalAuthenticationService
    let client: SessionFileClient

    init(parameters: PasswordCost = .scrypt(ScryptParameters(logN: 10))) {
        let clock = self.clock
        service = LocalAuthenticationService(
            store: store, mailer: mailer, hasher: PasswordHasher(parameters: parameters), now: { clock.now }
        )
        client = SessionFileClient(service: service, credentials: credentials, client: Self.source)
    }

    /// The login source of `client`.
    static let source = "uid 1000@laptop"

    /// Another client (its own token) of the same accounts, from `source`.
    func secondClient(source: String = AccountHarness.source) -> (SessionFileClient, InMemoryCredentials) {
        let credentials = InMemoryCredentials()
        return (SessionFileClient(service: service, credentials: credentials, client: source), credentials)
    }
}

/// The `AccountError` a call throws, or nil.
func accountError(_ body: () async throws -> Void) async -> AccountError? {
    do {
        try await body()
        return nil
    } catch let error as AccountError {
        return error
    } catch {
        return nil
    }
}
