import SondeAccounts
import Testing

@Suite struct RegistrationTests {
    @Test func registerLogsTheNewUserIn() async throws {
        let harness = AccountHarness()
        let account = try await harness.client.register(email: "  Ann@Example.COM ", password: "correct horse")
        #expect(account.email == "ann@example.com")
        #expect(try await harness.client.currentAccount() == account)
        #expect(try harness.credentials.load()?.count == 64)
    }

    @Test(arguments: [
        "ann", "ann@", "@example.com", "ann@example", "ann@@example.com", "ann smith@example.com", "ann@example.c",
        "ann@.com",
    ])
    func malformedEmailsAreRefused(email: String) async {
        let harness = AccountHarness()
        let error = await accountError {
            _ = try await harness.client.register(email: email, password: "correct horse")
        }
        #expect(error?.code == .invalidEmail)
        #expect(error?.description.hasPrefix("Error: Invalid email address") == true)
    }

    @Test(arguments: ["ann@example.com", "a.b+tag@sub.example.co.uk", "x@y.io"])
    func wellFormedEmailsAreAccepted(email: String) {
        #expect(AccountPolicy.isValid(email: email))
    }

    @Test func shortPasswordsAreRefused() async {
        let harness = AccountHarness()
        let error = await accountError {
            _ = try await harness.client.register(email: "ann@example.com", password: "1234567")
        }
        #expect(error?.code == .weakPassword)
        #expect(error?.description == "Error: Password too short: expected at least 8 characters")
        // Eight characters, counted as a person counts them (é is one).
        #expect(
            await accountError {
                _ = try await harness.client.register(email: "ann@example.com", password: "éééééééé")
            } == nil)
    }

    @Test func duplicateEmailsAreRefused() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        let error = await accountError {
            _ = try await harness.client.register(email: "ANN@example.com", password: "other password")
        }
        #expect(error?.code == .emailTaken)
    }

    @Test func emptyFieldsAreRefused() async {
        let harness = AccountHarness()
        #expect(
            await accountError { _ = try await harness.client.register(email: "", password: "correct horse") }
                == .missingFields)
        #expect(
            await accountError { _ = try await harness.client.register(email: "ann@example.com", password: "") }
                == .missingFields)
    }
}

@Suite struct LoginTests {
    private func registered() async throws -> AccountHarness {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        try await harness.client.logout()
        return harness
    }

    @Test func correctPasswordLogsIn() async throws {
        let harness = try await registered()
        let account = try await harness.client.login(email: "Ann@example.com", password: "correct horse")
        #expect(account.email == "ann@example.com")
        #expect(try await harness.client.currentAccount() == account)
    }

    @Test func unknownEmailAndWrongPasswordGiveTheSameAnswer() async throws {
        let harness = try await registered()
        let unknown = await accountError {
            _ = try await harness.client.login(email: "bob@example.com", password: "correct horse")
        }
        let wrong = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "wrong horse")
        }
        #expect(unknown?.description == "Error: Invalid credentials")
        #expect(wrong == unknown)
        #expect(try await harness.client.currentAccount() == nil)
    }

    @Test func emptyFieldsSayPleaseFillAllFields() async throws {
        let harness = try await registered()
        for (email, password) in [("", "correct horse"), ("ann@example.com", ""), ("   ", "x"), ("", "")] {
            let error = await accountError { _ = try await harness.client.login(email: email, password: password) }
            #expect(error?.description == "Please fill all fields")
        }
        // Not a failed login: no lock comes of it.
        #expect(try await harness.store.loginFailures(email: "ann@example.com", source: AccountHarness.source) == nil)
    }

    @Test func fiveFailuresLockTheAccountForAGrowingDelay() async throws {
        let harness = try await registered()
        for attempt in 1...4 {
            let error = await accountError {
                _ = try await harness.client.login(email: "ann@example.com", password: "wrong \(attempt)")
            }
            #expect(error == .invalidCredentials)
        }
        let fifth = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "wrong 5")
        }
        #expect(fifth?.code == .locked)
        #expect(fifth?.retryAfter == 30)
        #expect(fifth?.description == "Error: Too many failed logins (5): this account is locked; try again in 30 s")
        // The right password does not help while locked.
        let locked = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "correct horse")
        }
        #expect(locked?.code == .locked)
        harness.clock.advance(31)
        let sixth = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "wrong 6")
        }
        #expect(sixth?.retryAfter == 60)
        harness.clock.advance(61)
        let seventh = await accountError {
            _ = try await harness.client.login(email: "ann@example.com", password: "wrong 7")
        }
        #expect(seventh?.retryAfter == 120)
        #expect(seventh?.description.hasSuffix("try again in 2 min") == true)
        harness.clock.advance(121)
        _ = try await harness.client.login(email: "ann@example.com", password: "correct horse")
        // Success starts the count afresh.
        #expect(try await harness.store.loginFailures(email: "ann@example.com", source: AccountHarness.source) == nil)
    }

    @Test func unknownEmailsLockExactlyLikeKnownOnes() async throws {
        let harness = try await registered()
        var answers: [AccountError?] = []
        for email in ["ann@example.com", "bob@example.com"] {
            for _ in 1...5 {
                answers.append(
                    await accountError { _ = try await harness.client.login(email: email, password: "wrong horse") })
            }
        }
        #expect(Array(answers[0..<5]) == Array(answers[5..<10]))
    }

    @Test func lockSchedule() {
        let policy = AccountPolicy()
        #expect((1...4).map { policy.lockDuration(afterFailures: $0) } == [nil, nil, nil, nil])
        #expect((5...9).map { policy.lockDuration(afterFailures: $0) } == [30, 60, 120, 240, 480])
        #expect(policy.lockDuration(afterFailures: 12) == 3600)
        #expect(policy.lockDuration(afterFailures: 1000) == 3600)
    }

    @Test func aWeakerStoredHashIsUpgradedAtLogin() async throws {
        let weak = AccountHarness(parameters: .scrypt(ScryptParameters(logN: 8)))
        _ = try await weak.client.register(email: "ann@example.com", password: "correct horse")
        #expect(weak.store.passwordHash(of: "ann@example.com")?.hasPrefix("$scrypt$ln=8,r=8,p=1$") == true)
        let clock = weak.clock
        let stronger = LocalAuthenticationService(
            store: weak.store, mailer: weak.mailer,
            hasher: PasswordHasher(parameters: .scrypt(ScryptParameters(logN: 10))),
            now: { clock.now }
        )
        _ = try await stronger.login(email: "ann@example.com", password: "correct horse", client: AccountHarness.source)
        #expect(weak.store.passwordHash(of: "ann@example.com")?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true)
        _ = try await stronger.login(email: "ann@example.com", password: "correct horse", client: AccountHarness.source)
    }

    /// A scrypt hash made before Argon2id (OWASP's scrypt minimum is what sonde stored) is
    /// re-hashed with Argon2id at the next login, and the same password still signs in.
    @Test func aScryptHashBecomesArgon2idAtLogin() async throws {
        let before = AccountHarness(parameters: .scrypt(ScryptParameters(logN: 10)))
        _ = try await before.client.register(email: "ann@example.com", password: "correct horse")
        let clock = before.clock
        let now = LocalAuthenticationService(
            store: before.store, mailer: before.mailer,
            hasher: PasswordHasher(
                parameters: .argon2id(Argon2Parameters(memoryKiB: 64, iterations: 1, parallelism: 1))),
            now: { clock.now })
        _ = try await now.login(email: "ann@example.com", password: "correct horse", client: AccountHarness.source)
        #expect(before.store.passwordHash(of: "ann@example.com")?.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$") == true)
        _ = try await now.login(email: "ann@example.com", password: "correct horse", client: AccountHarness.source)
        #expect(
            await accountError {
                _ = try await now.login(
                    email: "ann@example.com", password: "wrong horse", client: AccountHarness.source)
            } == .invalidCredentials)
        // An unknown address is checked against a well-formed Argon2id hash: the same answer.
        #expect(
            await accountError {
                _ = try await now.login(email: "bob@example.com", password: "correct horse", client: "other")
            } == .invalidCredentials)
    }
}

@Suite struct SessionTests {
    @Test func logoutRevokesTheSessionInTheStoreAndOnTheClient() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        let token = try #require(try harness.credentials.load())
        #expect(harness.store.sessionCount == 1)
        try await harness.client.logout()
        #expect(harness.store.sessionCount == 0)
        #expect(try harness.credentials.load() == nil)
        // A copy of the token kept elsewhere is worthless now.
        try harness.credentials.save(token)
        #expect(try await harness.client.currentAccount() == nil)
        #expect(await accountError { try await harness.client.logout() } == .notLoggedIn)
        #expect(AccountError.notLoggedIn.description == "Not logged in", "the CLI adds its own hint")
    }

    @Test func sessionsExpireAfterThirtyDays() async throws {
        let harness = AccountHarness()
        let account = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        harness.clock.advance(30 * 86_400 - 1)
        #expect(try await harness.client.currentAccount() == account)
        harness.clock.advance(2)
        #expect(try await harness.client.currentAccount() == nil)
        #expect(try harness.credentials.load() == nil, "a dead token is removed from the client")
        #expect(await accountError { _ = try await harness.client.requireAccount() } == .notLoggedIn)
    }

    @Test func loggingInAgainReplacesTheOldSession() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        _ = try await harness.client.register(email: "bob@example.com", password: "correct horse")
        #expect(harness.store.sessionCount == 1)
        #expect(try await harness.client.currentAccount()?.email == "bob@example.com")
    }
}

@Suite struct PasswordResetTests {
    @Test func forgotPasswordAnswersTheSameForUnknownEmails() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        try await harness.service.requestPasswordReset(email: "nobody@example.com")
        #expect(harness.mailer.all.isEmpty)
        try await harness.service.requestPasswordReset(email: "ANN@example.com")
        let message = try #require(harness.mailer.all.first)
        #expect(message.email == "ann@example.com")
        #expect(message.token.count == 64)
        #expect(message.expiresAt == harness.clock.now + 15 * 60)
    }

    @Test func aTokenWorksOnceAndEndsTheOtherSessions() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        let (laptop, laptopCredentials) = harness.secondClient()
        _ = try await laptop.login(email: "ann@example.com", password: "correct horse")
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.first?.token)

        let account = try await harness.client.resetPassword(token: token, newPassword: "battery staple")
        #expect(account.email == "ann@example.com")
        #expect(try await laptop.currentAccount() == nil, "the other session ended")
        #expect(try laptopCredentials.load() == nil)
        #expect(try await harness.client.currentAccount() == account, "this client's own session stays")
        #expect(
            await accountError { _ = try await laptop.login(email: "ann@example.com", password: "correct horse") }
                == .invalidCredentials)
        _ = try await laptop.login(email: "ann@example.com", password: "battery staple")

        let again = await accountError {
            _ = try await harness.client.resetPassword(token: token, newPassword: "third password")
        }
        #expect(again == .invalidResetToken)
    }

    @Test func tokensExpireAfterFifteenMinutes() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.first?.token)
        harness.clock.advance(15 * 60 + 1)
        #expect(
            await accountError {
                _ = try await harness.client.resetPassword(token: token, newPassword: "battery staple")
            } == .invalidResetToken)
    }

    @Test func resetChecksTheTokenAndTheNewPassword() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.first?.token)
        #expect(
            await accountError {
                _ = try await harness.client.resetPassword(token: "abc", newPassword: "battery staple")
            } == .invalidResetToken)
        #expect(
            await accountError { _ = try await harness.client.resetPassword(token: token, newPassword: "short") }?.code
                == .weakPassword)
        #expect(
            await accountError { _ = try await harness.client.resetPassword(token: "", newPassword: "battery staple") }
                == .missingFields)
        // Failed attempts did not use the token up.
        _ = try await harness.client.resetPassword(token: token, newPassword: "battery staple")
    }

    @Test func aResetClearsALock() async throws {
        let harness = AccountHarness()
        _ = try await harness.client.register(email: "ann@example.com", password: "correct horse")
        for _ in 1...5 {
            _ = await accountError {
                _ = try await harness.client.login(email: "ann@example.com", password: "wrong horse")
            }
        }
        try await harness.service.requestPasswordReset(email: "ann@example.com")
        let token = try #require(harness.mailer.all.first?.token)
        _ = try await harness.client.resetPassword(token: token, newPassword: "battery staple")
        _ = try await harness.client.login(email: "ann@example.com", password: "battery staple")
    }
}
