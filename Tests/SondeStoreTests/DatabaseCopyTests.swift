import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeStore
import SondeStoreFormat
import Testing

/// `sonde store copy`'s library: a SQLite store of a few hundred measurements copied into
/// each engine (PostgreSQL when the test server is there) and back again; every export
/// from the copy is byte for byte the original's.
@Suite struct DatabaseCopyTests {
    private func export(
        _ client: StoreHarness.Client, _ id: MeasurementID, _ format: OutputFormat, in directory: String
    )
        async throws -> Data
    {
        let path = directory + "/export-\(UUID().uuidString).\(format.rawValue)"
        try await client.measurements.export(id: id, format: format, to: OutputFile(atomicallyReplacing: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: StoreEngine.available)
    func aCopyIsResumableAndEveryExportIsTheSame(target engine: StoreEngine) async throws {
        let source = try await StoreHarness(.sqlite)
        let ann = source.client("ann")
        let bob = source.client("bob")
        let annAccount = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        let bobAccount = try await bob.authentication.register(email: "bob@example.com", password: "battery staple")
        var saved: [(StoreHarness.Client, SavedMeasurement)] = []
        for index in 0..<240 {
            let client = index % 3 == 2 ? bob : ann
            let batches = sampleBatches(frames: 3 + index % 17, batchSize: 4 + index % 5, seed: index)
            let measurement = try await client.measurements.save(
                sampleCapture(comment: "run \(index)", recordedAt: 1_800_000_000 + Double(index)), records: batches)
            saved.append((client, measurement))
        }
        saved.append((ann, try await ann.measurements.save(sampleCapture(comment: "no window"), records: [])))
        // A gap in the ids: the copy keeps them, it does not renumber.
        try await ann.measurements.delete(id: saved[10].1.id)
        saved.remove(at: 10)

        let target = try await StoreHarness(engine)
        let sourceEnd = try await StoreFactory.openForCopy(source.url)
        let targetEnd = try await StoreFactory.openForCopy(target.url)
        // Interrupted after 100 measurements, then resumed, then run once more.
        let first = try await StoreCopier.copy(
            from: sourceEnd, to: targetEnd, now: WallClock.now(), stopAfter: 100, progress: nil)
        #expect(first.measurementsCopied == 100 && first.users == 2 && first.sessions == 2)
        let second = try await StoreCopier.copy(from: source.url, to: target.url)
        #expect(second.measurementsCopied == saved.count - 100 && second.measurementsSkipped == 100)
        let third = try await StoreCopier.copy(from: source.url, to: target.url)
        #expect(third.measurementsCopied == 0 && third.measurementsSkipped == saved.count)

        // The same session files are logged in on the copy: their sessions came along.
        let annThere = source.client("ann", instance: target.stores)
        let bobThere = source.client("bob", instance: target.stores)
        #expect(try await annThere.authentication.currentAccount() == annAccount)
        #expect(try await bobThere.authentication.currentAccount() == bobAccount)
        #expect(try await annThere.measurements.list() == ann.measurements.list())
        #expect(try await bobThere.measurements.list() == bob.measurements.list())
        for (index, (client, measurement)) in saved.enumerated() {
            let there = client.sessionFile.path == ann.sessionFile.path ? annThere : bobThere
            let formats: [OutputFormat] = index < 3 ? OutputFormat.allCases : [.csv]
            for format in formats {
                let original = try await export(client, measurement.id, format, in: source.directory)
                let copied = try await export(there, measurement.id, format, in: source.directory)
                #expect(copied == original, "measurement \(measurement.id) \(format) differs after the copy")
            }
        }
        // The passwords came along too, and new saves on the copy get new ids.
        #expect(
            try await bobThere.authentication.login(email: "bob@example.com", password: "battery staple") == bobAccount)
        let next = try await annThere.measurements.save(sampleCapture(), records: sampleBatches(frames: 3))
        #expect(next.id.rawValue > (saved.map(\.1.id.rawValue).max() ?? 0))

        // And back, into a new SQLite file: the same exports again.
        let back = try await StoreHarness(.sqlite)
        _ = try await StoreCopier.copy(from: target.url, to: back.url)
        let annBack = source.client("ann", instance: back.stores)
        for (client, measurement) in saved where client.sessionFile.path == ann.sessionFile.path {
            #expect(
                try await export(annBack, measurement.id, .csv, in: source.directory)
                    == export(ann, measurement.id, .csv, in: source.directory))
        }
        #expect(try await back.isConsistent())
        #expect(try await target.isConsistent())
    }

    @Test func aTargetWithOtherDataUnderTheSameIdsIsRefused() async throws {
        let source = try await StoreHarness(.sqlite)
        let target = try await StoreHarness(.sqlite)
        let ann = source.client("ann")
        _ = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        _ = try await ann.measurements.save(sampleCapture(), records: sampleBatches(frames: 3))
        // The target's user 1 is someone else.
        _ = try await target.stores.users.createUser(email: "zoe@example.com", passwordHash: "h", createdAt: 0)
        await #expect {
            _ = try await StoreCopier.copy(from: source.url, to: target.url)
        } throws: { error in
            (error as? SondeError)?.code == .invalidInput
                && "\(error)".contains("user 1 is another account than ann@example.com's")
        }
        await #expect {
            _ = try await StoreCopier.copy(from: .sqlite(path: source.directory + "/missing.sqlite"), to: target.url)
        } throws: { error in
            "\(error)".contains("missing.sqlite': no such file to copy from")
        }
    }
}
