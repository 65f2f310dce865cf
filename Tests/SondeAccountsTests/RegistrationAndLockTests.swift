import SondeAccounts
import Testing

/// Issue 29: one policy for a known address on the web and the command line (both call
/// `register`): a new address gets an account and a session, a known one is refused with
/// `.emailTaken` and changes nothing. Issue 23: failed logins from one source must not lock
/// the owner out.
@Suite struct RegistrationAndLockTests {
    @Test func aKnownAddressIsRefusedAndKeepsItsPassword() async throws {
        let harness = AccountHarness()
        let account = try await harness.client.register(email: " Ann@Example.com ", password: "correct horse")
        #expect(account.email == "ann@example.com")
        #expect(try await harness.client.currentAccount() == account, "registering logs in")
        let (other, _) = harness.secondClient(source: "uid 4242@elsewhere")
        let taken = await accountError {
            _ = try await other.register(email: "ann@example.com", password: "another password")
        }
        #expect(taken?.code == .emailTaken)
        #expect(try await other.currentAccount() == nil, "a refused registration starts no session")
        let wrong = await accountError {
            _ = try await other.login(email: "ann@example.com", password: "another password")
        }
        #expect(wrong == .invalidCredentials, "the known address kept its password")
        #expect(harness.mailer.all.isEmpty, "registration sends nothing")
    }

    @Test(arguments: [("", "correct horse"), ("ann@example", "correct horse"), ("ann@example.com", "short")])
    func registrationChecksTheForm(_ email: String, _ password: String) async throws {
        let harness = AccountHarness()
        let error = await accountError { _ = try await harness.client.register(email: email, password: password) }
        #expect(error != nil)
        #expect(try await harness.client.currentAccount() == nil)
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
