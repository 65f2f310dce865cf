import Foundation
import SondeAccounts
import SondeCore
import SondeStore
import Testing

@Suite struct DatabaseTests {
    @Test func opensInWALModeWithTheSchemaMigrated() throws {
        let harness = try StoreHarness()
        #expect(
            try harness.database.appliedMigrations() == [
                "v1: accounts and measurements", "v2: failed logins per email and source",
            ])
        let header = try #require(FileManager.default.contents(atPath: harness.database.path))
        // SQLite's header: bytes 18 and 19 (file format read/write versions) are 2 in WAL mode.
        #expect(header.count >= 100 && header[18] == 2 && header[19] == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: harness.database.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try harness.database.isConsistent())
        // Opening again migrates nothing twice.
        let again = try SQLiteDatabase(path: harness.database.path)
        #expect(
            try again.appliedMigrations() == [
                "v1: accounts and measurements", "v2: failed logins per email and source",
            ])
    }

    @Test func anUnwritablePlaceIsAnErrorThatNamesIt() {
        #expect {
            _ = try SQLiteDatabase(path: "/proc/sonde-cannot-be-here/sonde.sqlite")
        } throws: { error in
            (error as? SondeError)?.code == .io && "\(error)".contains("/proc/sonde-cannot-be-here")
        }
    }

    @Test func theDatabaseHoldsNoPasswordAndNoToken() async throws {
        let harness = try StoreHarness()
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

        let bytes = try harness.databaseBytes()
        #expect(bytes.count > 4096)
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

@Suite struct SQLiteAccountTests {
    @Test func theWholeAccountLifeOnSQLite() async throws {
        let harness = try StoreHarness()
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

    @Test func concurrentFailuresAreAllCounted() async throws {
        let harness = try StoreHarness()
        let store = SQLiteUserSessionStore(database: harness.database)
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

    @Test func racingRegistrationsMakeOneAccount() async throws {
        let harness = try StoreHarness()
        let store = SQLiteUserSessionStore(database: harness.database)
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

    @Test func expiredSessionsAreNotAccepted() async throws {
        let harness = try StoreHarness()
        let store = SQLiteUserSessionStore(database: harness.database)
        let ann = try await store.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)
        try await store.createSession(tokenHash: [1, 2, 3], user: ann.id, createdAt: 0, expiresAt: 100)
        #expect(try await store.account(sessionTokenHash: [1, 2, 3], now: 99) == ann)
        #expect(try await store.account(sessionTokenHash: [1, 2, 3], now: 100) == nil)
        #expect(try await store.account(sessionTokenHash: [1, 2, 4], now: 0) == nil)
    }
}
