import SondeAccounts
import Testing

/// Issue 23: `register` must not tell whether an address has an account, and failed logins
/// from one source must not lock the owner out.
@Suite struct RegistrationAndLockTests {
    @Test func signUpAnswersAlikeForANewAndAKnownAddress() async throws {
        let harness = AccountHarness()
        try await harness.service.signUp(email: " Ann@Example.com ", password: "correct horse")
        // The same call for the same address returns the same way, and changes nothing.
        try await harness.service.signUp(email: "ann@example.com", password: "another password")
        #expect(try await harness.client.currentAccount() == nil, "signing up starts no session")
        let notices = harness.mailer.allNotices
        #expect(notices.map { $0.0 } == [.welcome, .alreadyRegistered])
        #expect(notices.map { $0.1 } == ["ann@example.com", "ann@example.com"])
        _ = try await harness.client.login(email: "ann@example.com", password: "correct horse")
        let second = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "another password")
        }
        #expect(second == .invalidCredentials, "the known address kept its password")
    }

    @Test(arguments: [("", "correct horse"), ("ann@example", "correct horse"), ("ann@example.com", "short")])
    func signUpStillChecksTheForm(_ email: String, _ password: String) async throws {
        let harness = AccountHarness()
        let error = await accountError { try await harness.service.signUp(email: email, password: password) }
        #expect(error != nil)
        #expect(harness.mailer.allNotices.isEmpty)
    }

    @Test func failuresFromAnotherSourceDoNotLockTheOwnerOut() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        let (intruder, _) = harness.secondClient(source: "uid 4242@elsewhere")
        for attempt in 1...6 {
            _ = await accountError {
                _ = try await intruder.login(email: "ann@example.com", password: "guess \(attempt)")
            }
        }
        let locked = await accountError {
            _ = try await intruder.login(email: "ann@example.com", password: "correct horse")
        }
        #expect(locked?.code == .locked, "the guessing source is locked, even with the right password")
        // The owner, from their own source, gets in at once.
        let account = try await harness.client.login(email: "ann@example.com", password: "correct horse")
        #expect(account.email == "ann@example.com")
        // A reset by the owner ends every source's lock.
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.last?.token)
        _ = try await harness.client.resetPassword(token: token, newPassword: "battery staple")
        _ = try await intruder.login(email: "ann@example.com", password: "battery staple")
    }
}
