import SondeCore
import SondeMeasurements
import Testing

/// Issue 31: a list reads only what its lines show (`MeasurementListing`), page by page,
/// on both engines; each line is what the whole measurement gives.
@Suite struct MeasurementListingTests {
    @Test(arguments: StoreEngine.available)
    func listingsArePagesOfWhatTheWholeMeasurementsGive(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let ann = harness.client("ann")
        let bob = harness.client("bob")
        _ = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        _ = try await bob.authentication.register(email: "bob@example.com", password: "battery staple")
        for index in 0..<7 {
            // Index 3 has no complete window; the others differ in values and time.
            let records = index == 3 ? [] : sampleBatches(frames: 5 + index, seed: index)
            _ = try await ann.measurements.save(
                sampleCapture(comment: "run \(index)", recordedAt: 1_800_000_000 + Double(index % 4)),
                records: records)
        }
        _ = try await bob.measurements.save(sampleCapture(comment: "bob's"), records: sampleBatches(frames: 3))

        let whole = try await ann.measurements.list()
        let expected = whole.map(MeasurementListing.init)
        #expect(try await ann.measurements.listings() == expected)
        #expect(try await ann.measurements.count() == 7)
        #expect(try await bob.measurements.count() == 1)
        // Pages, in the same order (recorded time, then id, newest first).
        var paged: [MeasurementListing] = []
        for offset in stride(from: 0, to: 9, by: 3) {
            paged += try await ann.measurements.listings(offset: offset, limit: 3)
        }
        #expect(paged == expected)
        #expect(try await ann.measurements.listings(offset: 7, limit: 3).isEmpty)
        // The main values: rms and peak here (no dominant_frequency column), per channel.
        let first = try #require(expected.first { $0.frameCount > 0 })
        #expect(first.channels.map(\.name) == ["x", "y"])
        #expect(first.channels[0].values.map(\.column) == ["rms", "peak"])
        let empty = try #require(expected.first { $0.comment == "run 3" })
        #expect(empty.frameCount == 0 && empty.channels.allSatisfy(\.values.isEmpty))
        #expect(try await bob.measurements.listings().map(\.comment) == ["bob's"])

        await #expect(throws: SondeError.self) { _ = try await ann.measurements.listings(offset: -1, limit: 3) }
        await #expect(throws: SondeError.self) { _ = try await ann.measurements.listings(offset: 0, limit: 0) }
    }

    /// A long list comes in batches of `batchSize` (the CLI writes one while the store
    /// reads the next): full batches and then the rest, together the whole list, for a
    /// whole list and for a page that crosses a batch's end.
    @Test(arguments: StoreEngine.available)
    func longListsComeInFullBatches(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let ann = harness.client("ann")
        _ = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        let size = MeasurementListing.batchSize
        let count = 2 * size + 17
        for index in 0..<count {
            _ = try await ann.measurements.save(
                sampleCapture(comment: "run \(index)", recordedAt: 1_800_000_000 + Double(index)),
                records: index % 100 == 0 ? sampleBatches(frames: 3, seed: index) : [])
        }
        let whole = try await ann.measurements.listings()
        #expect(whole.count == count)
        #expect(whole.first?.comment == "run \(count - 1)")
        let batches = try await ann.measurements.listingBatches()
        #expect(batches.map(\.count) == [size, size, 17])
        #expect(Array(batches.joined()) == whole)
        let page = try await ann.measurements.listingBatches(offset: size - 10, limit: 30)
        #expect(page.map(\.count) == [30])
        #expect(Array(page.joined()) == Array(whole[(size - 10)..<(size + 20)]))
        await #expect(throws: SondeError.self) { _ = try await ann.measurements.listingBatches(offset: -1) }
    }

    /// The columns a line shows: the main ones in their order, else the first three.
    @Test func shownColumnsFollowTheMainOnes() {
        #expect(MeasurementListing.shownColumns(of: ["peak", "x", "rms"]) == [2, 0])
        #expect(MeasurementListing.shownColumns(of: ["a", "b", "c", "d"]) == [0, 1, 2])
        #expect(MeasurementListing.shownColumns(of: ["dominant_frequency"]) == [0])
    }
}

/// Migrations 4 and 5 fill the listed part of every summary already stored (as JSON, then
/// as `ListedMeans` bytes), and a row without listed means (written by an older sonde after
/// the migration) still lists, from its whole summary.
@Suite struct ListedSummaryMigrationTests {
    @Test(arguments: StoreEngine.available)
    func rowsBeforeTheMigrationAreFilledAndRowsWithoutItStillList(engine: StoreEngine) async throws {
        let harness = try await StoreHarness(engine)
        let ann = harness.client("ann")
        _ = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        for index in 0..<4 {
            _ = try await ann.measurements.save(
                sampleCapture(comment: "run \(index)", recordedAt: 1_800_000_000 + Double(index)),
                records: index == 2 ? [] : sampleBatches(frames: 4 + index, seed: index))
        }
        let expected = try await ann.measurements.list().map(MeasurementListing.init)
        #expect(try await ann.measurements.listings() == expected)
        let written = try await texts(
            "SELECT CAST(count(*) AS TEXT) FROM measurements WHERE listed_means IS NOT NULL AND listed_summary IS NULL",
            in: harness)
        #expect(written == ["4"], "a new row has listed means only")

        // Back to the schema before migration 4, rows and all; opening again migrates.
        let undo = [
            "DROP INDEX measurements_listed_means",
            "CREATE INDEX measurements_by_owner ON measurements(user_id, recorded_at DESC, id DESC)",
            "ALTER TABLE measurements DROP COLUMN listed_means",
            "ALTER TABLE measurements DROP COLUMN listed_summary",
            engine == .sqlite
                ? "DELETE FROM grdb_migrations WHERE identifier LIKE 'v4:%' OR identifier LIKE 'v5:%'"
                : "DELETE FROM schema_migrations WHERE version IN (4, 5)",
        ]
        for statement in undo { _ = try await texts(statement, in: harness) }
        let again = harness.client("ann", instance: try await harness.anotherInstance())
        #expect(try await again.measurements.listings() == expected)
        let filled = try await texts(
            "SELECT CAST(count(*) AS TEXT) FROM measurements WHERE listed_summary IS NOT NULL AND listed_means IS NOT NULL",
            in: harness)
        #expect(filled == ["4"])

        // Rows an older sonde wrote after the migrations: listed JSON only (after 4), or
        // neither (before 4).
        _ = try await texts("UPDATE measurements SET listed_means = NULL WHERE comment = 'run 1'", in: harness)
        _ = try await texts(
            "UPDATE measurements SET listed_means = NULL, listed_summary = NULL WHERE comment = 'run 3'", in: harness)
        #expect(try await again.measurements.listings() == expected)
    }

    private func texts(_ sql: String, in harness: StoreHarness) async throws -> [String?] {
        if let sqlite = harness.sqlite { return try sqlite.texts(sql) }
        let postgres = try #require(harness.postgres)
        return try await postgres.texts(sql)
    }
}
