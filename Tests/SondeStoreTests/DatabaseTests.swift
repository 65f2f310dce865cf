import Foundation
import SondeAccounts
import SondeCore
import SondePostgres
import SondeSQLite
import SondeStoreFormat
import Testing

@Suite struct DatabaseTests {
    @Test func opensInWALModeWithTheSchemaMigrated() async throws {
        let harness = try await StoreHarness(.sqlite)
        let database = try #require(harness.sqlite)
        #expect(
            try database.appliedMigrations() == [
                "v1: accounts and measurements", "v2: failed logins per email and source",
                "v3: sessions keep the email as typed", "v4: measurements keep their listed means",
                "v5: listed means as bytes",
            ])
        let header = try #require(FileManager.default.contents(atPath: database.path))
        // SQLite's header: bytes 18 and 19 (file format read/write versions) are 2 in WAL mode.
        #expect(header.count >= 100 && header[18] == 2 && header[19] == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try database.isConsistent())
        // Opening again migrates nothing twice.
        let again = try SQLiteDatabase(path: database.path)
        #expect(
            try again.appliedMigrations() == [
                "v1: accounts and measurements", "v2: failed logins per email and source",
                "v3: sessions keep the email as typed", "v4: measurements keep their listed means",
                "v5: listed means as bytes",
            ])
    }

    @Test func anUnwritablePlaceIsAnErrorThatNamesIt() {
        #expect {
            _ = try SQLiteDatabase(path: "/proc/sonde-cannot-be-here/sonde.sqlite")
        } throws: { error in
            (error as? SondeError)?.code == .io && "\(error)".contains("/proc/sonde-cannot-be-here")
        }
    }

    @Test(.enabled(if: StoreEngine.available.contains(.postgres)))
    func postgresIsMigratedOnceWhenProcessesStartTogether() async throws {
        let location = try await StoreHarness.newPostgresDatabase()
        // Four processes opening a new database at once: the advisory lock lets one migrate.
        let opened = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await PostgresDatabase.open(location: location, maximumConnections: 1).appliedMigrations()
                }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        let numbers = StoreMigration.all.map(\.number)
        #expect(numbers == [1, 2, 3, 4, 5])
        #expect(opened == Array(repeating: numbers, count: 4))
        let again = try await PostgresDatabase.open(location: location)
        #expect(try await again.texts("SELECT count(*)::text FROM schema_migrations") == ["5"])
        #expect(
            try await again.texts("SELECT name FROM schema_migrations ORDER BY version")
                == StoreMigration.all.map(\.name))
        #expect(try await again.isConsistent())
    }

    @Test(.enabled(if: StoreEngine.available.contains(.postgres)))
    func aNewerPostgresSchemaIsRefused() async throws {
        let location = try await StoreHarness.newPostgresDatabase()
        let database = try await PostgresDatabase.open(location: location)
        _ = try await database.texts(
            "INSERT INTO schema_migrations VALUES (99, 'from the future', 0) RETURNING 'x'::text")
        await #expect {
            _ = try await PostgresDatabase.open(location: location)
        } throws: { error in
            "\(error)".contains("version 99, newer than this sonde's 5") && "\(error)".contains(location.description)
        }
    }

    @Test(arguments: StoreEngine.available)
    func theDatabaseHoldsNoPasswordAndNoToken(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let ann = harness.client("ann")
        let password = "plaintext-password-7731"
        _ = try await ann.authentication.register(email: "ann@example.com", password: password)
        let sessionToken = try #require(try ann.sessionFile.load())
        try await ann.authentication.service.requestPasswordReset(email: "ann@example.com")
        let outbox = try FileManager.default.contentsOfDirectory(atPath: harness.directory + "/outbox")
        let message = try String(
            contentsOfFile: harness.directory + "/outbox/" + #require(outbox.first), encoding: .utf8)
        let resetToken = try #require(message.split(separator: "\n").first { $0.hasPrefix("Token: ") }?.dropFirst(7))
        let newPassword = "another-plaintext-5512"
        _ = try await ann.authentication.resetPassword(token: String(resetToken), newPassword: newPassword)
        _ = try await ann.authentication.login(email: "ann@example.com", password: newPassword)
        let latestToken = try #require(try ann.sessionFile.load())

        let bytes = try await harness.storedBytes()
        #expect(bytes.count > (engine == .sqlite ? 4096 : 300), "the scan reads what is stored")
        for secret in [password, newPassword, sessionToken, latestToken, String(resetToken)] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "found a secret in the database: \(secret.prefix(6))…")
            // Nor its raw bytes, for the hex tokens.
            if let raw = hexBytes(secret) { #expect(bytes.range(of: raw) == nil) }
        }
        #expect(bytes.range(of: Data("ann@example.com".utf8)) != nil, "the scan does see stored text")
    }

    private func hexBytes(_ text: String) -> Data? {
        guard text.count == 64 else { return nil }
        var data = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            data.append(byte)
            index = next
        }
        return data
    }
}

@Suite struct AccountStoreTests {
    @Test(arguments: StoreEngine.available)
    func theWholeAccountLife(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let phone = harness.client("phone")
        let laptop = harness.client("laptop")
        let ann = try await phone.authentication.register(email: "Ann@Example.com", password: "correct horse")
        #expect(ann.email == "ann@example.com")
        #expect(try await laptop.authentication.login(email: "ann@example.com", password: "correct horse") == ann)
        #expect(try await phone.authentication.currentAccount() == ann)
        #expect(try await laptop.authentication.currentAccount() == ann)

        try await laptop.authentication.service.requestPasswordReset(email: "ann@example.com")
        let outbox = try FileManager.default.contentsOfDirectory(atPath: harness.directory + "/outbox")
        let message = try String(
            contentsOfFile: harness.directory + "/outbox/" + #require(outbox.first), encoding: .utf8)
        let token = try #require(message.split(separator: "\n").first { $0.hasPrefix("Token: ") }?.dropFirst(7))
        _ = try await laptop.authentication.resetPassword(token: String(token), newPassword: "battery staple")
        #expect(try await phone.authentication.currentAccount() == nil, "the reset ended the phone's session")
        #expect(try await laptop.authentication.currentAccount() == ann, "and kept the laptop's own")
        await #expect(throws: AccountError.invalidResetToken) {
            _ = try await laptop.authentication.resetPassword(token: String(token), newPassword: "third password")
        }
        try await laptop.authentication.logout()
        #expect(try await laptop.authentication.currentAccount() == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            _ = try await phone.authentication.login(email: "ann@example.com", password: "correct horse")
        }
        #expect(try await phone.authentication.login(email: "ann@example.com", password: "battery staple") == ann)
    }

    @Test(arguments: StoreEngine.available)
    func concurrentFailuresAreAllCounted(engine: StoreEngine) async throws {
        let store = try await StoreHarness(engine).stores.users
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    _ = try await store.recordLoginFailure(email: "ann@example.com", source: "a", at: Double(index))
                }
            }
            try await group.waitForAll()
        }
        _ = try await store.recordLoginFailure(email: "ann@example.com", source: "b", at: 0)
        #expect(try await store.loginFailures(email: "ann@example.com", source: "a")?.count == 20)
        #expect(try await store.loginFailures(email: "ann@example.com", source: "b")?.count == 1)
        try await store.clearLoginFailures(email: "ann@example.com", source: "a")
        #expect(try await store.loginFailures(email: "ann@example.com", source: "a") == nil)
        #expect(try await store.loginFailures(email: "ann@example.com", source: "b")?.count == 1)
        try await store.clearLoginFailures(email: "ann@example.com", source: nil)
        #expect(try await store.loginFailures(email: "ann@example.com", source: "b") == nil)
    }

    @Test(arguments: StoreEngine.available)
    func racingRegistrationsMakeOneAccount(engine: StoreEngine) async throws {
        let store = try await StoreHarness(engine).stores.users
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (try? await store.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1)
        await #expect(throws: AccountError.emailTaken("ann@example.com")) {
            _ = try await store.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)
        }
    }

    @Test(arguments: StoreEngine.available)
    func expiredSessionsAreNotAccepted(engine: StoreEngine) async throws {
        let store = try await StoreHarness(engine).stores.users
        let ann = try await store.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)
        try await store.createSession(
            tokenHash: [1, 2, 3], user: ann.id, emailAsTyped: nil, createdAt: 0, expiresAt: 100)
        #expect(try await store.account(sessionTokenHash: [1, 2, 3], now: 99) == ann)
        #expect(try await store.account(sessionTokenHash: [1, 2, 3], now: 100) == nil)
        #expect(try await store.account(sessionTokenHash: [1, 2, 4], now: 0) == nil)
    }

    /// Issue 29: each session keeps the address as typed at its login, for the greeting;
    /// the account stays the normalised one.
    @Test(arguments: StoreEngine.available)
    func sessionsKeepTheEmailAsTyped(engine: StoreEngine) async throws {
        let store = try await StoreHarness(engine).stores.users
        let ann = try await store.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)
        try await store.createSession(
            tokenHash: [1], user: ann.id, emailAsTyped: "Ann@Example.COM", createdAt: 0, expiresAt: 100)
        try await store.createSession(tokenHash: [2], user: ann.id, emailAsTyped: nil, createdAt: 0, expiresAt: 100)
        let typed = try #require(try await store.account(sessionTokenHash: [1], now: 1))
        #expect(typed == ann && typed.email == "ann@example.com")
        #expect(typed.emailAsTyped == "Ann@Example.COM" && typed.greetingEmail == "Ann@Example.COM")
        let untyped = try #require(try await store.account(sessionTokenHash: [2], now: 1))
        #expect(untyped.emailAsTyped == nil && untyped.greetingEmail == "ann@example.com")
    }
}
