import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements
import SondeStore
import Testing

/// A lab's shape: two instances (two `sonde serve` processes, or two workstations) opening
/// one database, each with its own connections (SQLite: its own pool on the file).
@Suite struct TwoInstanceTests {
    @Test(arguments: StoreEngine.available)
    func registeredOnOneLogsInOnTheOther(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let second = try await harness.anotherInstance()
        let phone = harness.client("phone")
        let laptop = harness.client("laptop", instance: second)
        let ann = try await phone.authentication.register(email: "ann@example.com", password: "correct horse")
        #expect(try await laptop.authentication.login(email: "ann@example.com", password: "correct horse") == ann)
        #expect(try await laptop.authentication.currentAccount() == ann)
        await #expect(throws: AccountError.emailTaken("ann@example.com")) {
            _ = try await second.users.createUser(email: "ann@example.com", passwordHash: "h", createdAt: 0)
        }
    }

    @Test(arguments: StoreEngine.available)
    func aSessionRevokedOnOneIsRefusedOnTheOther(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let second = try await harness.anotherInstance()
        // The session's token held on two machines (a copied session file), each with its
        // own instance: logging out on the first must end it on the second too.
        let first = harness.client("first")
        let other = harness.client("other", instance: second)
        let ann = try await first.authentication.register(email: "ann@example.com", password: "correct horse")
        _ = try await first.authentication.login(email: "ann@example.com", password: "correct horse")
        try other.sessionFile.save(try #require(try first.sessionFile.load()))
        #expect(try await other.authentication.currentAccount() == ann)
        try await first.authentication.logout()
        #expect(try other.sessionFile.load() != nil, "the second still holds the token")
        #expect(try await other.authentication.currentAccount() == nil)
        await #expect(throws: AccountError.notLoggedIn) { _ = try await other.measurements.list() }
        // At the store: a session started through one instance and deleted through the other.
        try await harness.stores.users.createSession(
            tokenHash: [7, 7], user: ann.id, emailAsTyped: nil, createdAt: 0, expiresAt: 9e9)
        #expect(try await second.users.account(sessionTokenHash: [7, 7], now: 1) == ann)
        try await second.users.deleteSession(tokenHash: [7, 7])
        #expect(try await harness.stores.users.account(sessionTokenHash: [7, 7], now: 1) == nil)
    }

    @Test(arguments: StoreEngine.available)
    func theLoginLockHoldsAcrossBoth(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let second = try await harness.anotherInstance()
        let one = harness.client("one", source: "lab-pc")
        let two = harness.client("two", instance: second, source: "lab-pc")
        _ = try await one.authentication.register(email: "ann@example.com", password: "correct horse")
        // Five wrong passwords, alternating instances and at once: every one is counted.
        let failures = await withTaskGroup(of: AccountError?.self) { group in
            for attempt in 0..<5 {
                let client = attempt % 2 == 0 ? one : two
                group.addTask {
                    do {
                        _ = try await client.authentication.login(
                            email: "ann@example.com", password: "wrong \(attempt)")
                        return nil
                    } catch let error as AccountError {
                        return error
                    } catch {
                        return nil
                    }
                }
            }
            return await group.reduce(into: [AccountError?]()) { $0.append($1) }
        }
        #expect(failures.count == 5 && failures.allSatisfy { $0 != nil })
        #expect(try await harness.stores.users.loginFailures(email: "ann@example.com", source: "lab-pc")?.count == 5)
        for client in [one, two] {
            // The right password is not even looked at while the lock lasts, on either instance.
            await #expect {
                _ = try await client.authentication.login(email: "ann@example.com", password: "correct horse")
            } throws: {
                ($0 as? AccountError)?.code == .locked
            }
        }
    }

    /// Eight clients saving at once through both instances: every measurement is there once,
    /// and every series reads back bit for bit from either instance.
    @Test(arguments: StoreEngine.available)
    func eightConcurrentSaversLoseAndDuplicateNothing(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let second = try await harness.anotherInstance()
        let instances = [harness.stores, second]
        let owner = try await harness.stores.users.createUser(
            email: "ann@example.com", passwordHash: "h", createdAt: 0)
        let savesEach = 6
        let saved = try await withThrowingTaskGroup(of: [(SavedMeasurement, [RecordBatch])].self) { group in
            for saver in 0..<8 {
                let store = instances[saver % 2].measurements
                group.addTask {
                    var mine: [(SavedMeasurement, [RecordBatch])] = []
                    for index in 0..<savesEach {
                        let seed = saver * 100 + index
                        let batches = sampleBatches(frames: 40 + seed % 7, batchSize: 9, seed: seed)
                        let new = NewMeasurement(
                            owner: owner.id, recordedAt: Double(seed), capture: sampleCapture(comment: "saver \(seed)"),
                            hop: 512, clock: batches[0].clock,
                            summary: try MeasurementSummary.checking(
                                batches, channelNames: ["x", "y"], columns: sampleCapture().columns
                            ).summary,
                            batches: batches)
                        mine.append((try await store.insert(new), batches))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [(SavedMeasurement, [RecordBatch])]()) { $0 += $1 }
        }
        #expect(saved.count == 8 * savesEach)
        #expect(Set(saved.map(\.0.id)).count == saved.count, "no id given twice")
        for stores in instances {
            let listed = try await stores.measurements.measurements(owner: owner.id)
            #expect(listed.count == saved.count, "nothing lost, nothing duplicated")
            #expect(Set(listed.map(\.comment)).count == saved.count)
        }
        for (index, (measurement, batches)) in saved.enumerated() {
            let reader = instances[index % 2].measurements
            let stored = try #require(try await reader.batches(of: measurement.id, owner: owner.id))
            #expect(stored.map(\.firstFrame) == batches.map(\.firstFrame))
            #expect(
                stored.flatMap(\.values).map(\.bitPattern) == batches.flatMap(\.values).map(\.bitPattern),
                "measurement \(measurement.id)'s series is bit for bit the one saved")
            #expect(try await reader.measurement(id: measurement.id, owner: owner.id) == measurement)
        }
        #expect(try await harness.isConsistent())
    }
}
