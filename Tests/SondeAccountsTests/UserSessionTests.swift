import SondeAccounts
import Testing

/// Issue 29: sessions are values the caller holds, so one service serves many clients (the
/// web app's cookies) beside the CLI's session file.
@Suite struct UserSessionTests {
    @Test func registerAndLoginHandOutIndependentSessions() async throws {
        let harness = AccountHarness()
        let phone = try await harness.service.register(
            email: "Ann@Example.com", password: "correct horse", client: "web 10.0.0.7")
        #expect(phone.account.email == "ann@example.com")
        #expect(phone.token.count == 64)
        #expect(phone.expiresAt == harness.clock.now + 30 * 86_400)
        let laptop = try await harness.service.login(
            email: "ann@example.com", password: "correct horse", client: "web 10.0.0.8")
        #expect(laptop.token != phone.token)
        #expect(laptop.account == phone.account)
        #expect(harness.store.sessionCount == 2, "a login elsewhere does not end the first session")
        #expect(try await harness.service.account(session: phone.token) == phone.account)

        try await harness.service.logout(session: phone.token)
        #expect(try await harness.service.account(session: phone.token) == nil)
        #expect(try await harness.service.account(session: laptop.token) == laptop.account, "the other stays")
    }

    @Test func unknownAndExpiredTokensAreNoAccountAndNoError() async throws {
        let harness = AccountHarness()
        let session = try await harness.service.register(
            email: "ann@example.com", password: "correct horse", client: "web")
        #expect(try await harness.service.account(session: "not a token") == nil)
        try await harness.service.logout(session: "not a token")
        #expect(harness.store.sessionCount == 1, "logging out an unknown token revoked nothing")
        harness.clock.advance(30 * 86_400 + 1)
        #expect(try await harness.service.account(session: session.token) == nil)
        try await harness.service.logout(session: session.token)
        #expect(harness.store.sessionCount == 0)
    }

    /// One browser guessing passwords locks only itself: the owner's browser gets in.
    @Test func failedLoginLocksAreKeyedOnTheClient() async throws {
        let harness = AccountHarness()
        _ = try await harness.service.register(
            email: "ann@example.com", password: "correct horse", client: "web 10.0.0.1")
        for attempt in 1...5 {
            _ = await accountError {
                _ = try await harness.service.login(
                    email: "ann@example.com", password: "guess \(attempt)", client: "web 10.0.0.66")
            }
        }
        let locked = await accountError {
            _ = try await harness.service.login(
                email: "ann@example.com", password: "correct horse", client: "web 10.0.0.66")
        }
        #expect(locked?.code == .locked)
        let session = try await harness.service.login(
            email: "ann@example.com", password: "correct horse", client: "web 10.0.0.1")
        #expect(session.account.email == "ann@example.com")
        #expect(try await harness.store.loginFailures(email: "ann@example.com", source: "web 10.0.0.66")?.count == 5)
    }

    @Test func aResetKeepsOnlyTheSessionNamed() async throws {
        let harness = AccountHarness()
        let first = try await harness.service.register(
            email: "ann@example.com", password: "correct horse", client: "web")
        let second = try await harness.service.login(email: "ann@example.com", password: "correct horse", client: "web")
        let third = try await harness.service.login(email: "ann@example.com", password: "correct horse", client: "web")
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.last?.token)
        _ = try await harness.service.resetPassword(
            token: token, newPassword: "battery staple", keepingSession: second.token)
        #expect(try await harness.service.account(session: first.token) == nil)
        #expect(try await harness.service.account(session: second.token) == second.account)
        #expect(try await harness.service.account(session: third.token) == nil)

        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let again = try #require(harness.mailer.all.last?.token)
        _ = try await harness.service.resetPassword(token: again, newPassword: "third password", keepingSession: nil)
        #expect(harness.store.sessionCount == 0, "a reset from a signed-out browser ends every session")
    }

    /// The CLI's client: a failed login keeps the session held before; a successful one
    /// revokes it in the store.
    @Test func theSessionFileClientKeepsOneSession() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        let held = try #require(try harness.credentials.load())
        #expect(
            await accountError { _ = try await harness.client.login(email: "ann@example.com", password: "wrong") }
                == .invalidCredentials)
        #expect(try harness.credentials.load() == held)
        #expect(try await harness.client.requireAccount().email == "ann@example.com")
        _ = try await harness.client.login(email: "ann@example.com", password: "correct horse")
        #expect(try harness.credentials.load() != held)
        #expect(try await harness.service.account(session: held) == nil, "the session held before is revoked")
        #expect(harness.store.sessionCount == 1)
    }
}
