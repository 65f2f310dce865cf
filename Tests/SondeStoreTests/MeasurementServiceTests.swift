import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeStore
import Testing

@Suite struct MeasurementServiceTests {
    /// Two users on one database, both logged in.
    private func twoUsers(
        _ engine: StoreEngine
    ) async throws -> (StoreHarness, StoreHarness.Client, StoreHarness.Client) {
        let harness = try await StoreHarness(engine)
        let ann = harness.client("ann")
        let bob = harness.client("bob")
        _ = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        _ = try await bob.authentication.register(email: "bob@example.com", password: "battery staple")
        return (harness, ann, bob)
    }

    /// What `sonde process` writes for `batches`: the same writer, fed directly. A Parquet
    /// footer also holds the measurement's settings and device, as an export adds them.
    private func processOutput(
        _ batches: [RecordBatch], columns: [String], format: OutputFormat, of saved: SavedMeasurement,
        in directory: String
    ) throws -> Data {
        let path = directory + "/reference-\(UUID().uuidString).\(format.rawValue)"
        let writer = try RecordWriters.make(
            format: format, layout: RecordLayout(valueColumns: columns, includesFile: false),
            output: OutputFile(atomicallyReplacing: path),
            parquet: ParquetWriterOptions(keyValueMetadata: [
                ("sonde.settings", saved.settings), ("sonde.device", saved.deviceID),
            ])
        )
        for batch in batches { try writer.write(batch) }
        try writer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func export(
        _ client: StoreHarness.Client, _ id: MeasurementID, _ format: OutputFormat, in directory: String
    ) async throws -> Data {
        let path = directory + "/export-\(UUID().uuidString).\(format.rawValue)"
        try await client.measurements.export(id: id, format: format, to: OutputFile(atomicallyReplacing: path))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(
        arguments: StoreEngine.available,
        [
            RecordClock.seconds(sampleRate: 25_600, offset: 0.125),
            RecordClock.wallClock(sampleRate: 1000, epochOfFirstSample: 1_800_000_000.25),
        ])
    func exportIsByteForByteWhatProcessWrites(engine: StoreEngine, clock: RecordClock) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        let batches = sampleBatches(frames: 40, clock: clock)
        let saved = try await ann.measurements.save(sampleCapture(), records: batches)
        for format in OutputFormat.allCases {
            let expected = try processOutput(
                batches, columns: sampleCapture().columns, format: format, of: saved, in: harness.directory)
            let exported = try await export(ann, saved.id, format, in: harness.directory)
            #expect(exported == expected, "\(format) export differs")
        }
    }

    @Test(arguments: StoreEngine.available)
    func saveComputesThePerChannelMeans(engine: StoreEngine) async throws {
        let (_, ann, _) = try await twoUsers(engine)
        let batches = sampleBatches(frames: 23, batchSize: 5)
        let saved = try await ann.measurements.save(sampleCapture(recordedAt: 1_800_000_000), records: batches)
        #expect(saved.frameCount == 23 && saved.recordCount == 46)
        #expect(saved.hop == 512 && saved.clock == batches[0].clock)
        let values = batches.flatMap(\.values)
        for (channel, name) in ["x", "y"].enumerated() {
            for (column, columnName) in saved.columns.enumerated() {
                let series = stride(from: channel * 3 + column, to: values.count, by: 6).map { values[$0] }
                let mean = series.reduce(0, +) / Double(series.count)
                let stored = try #require(saved.summary.mean(columnName, channel: name))
                #expect(abs(stored - mean) <= 1e-12 * max(1, abs(mean)))
            }
        }
        // What comes back from the database is what was saved.
        #expect(try await ann.measurements.show(id: saved.id) == saved)
    }

    @Test(arguments: StoreEngine.available)
    func listIsNewestFirstAndShowsOnlyTheUsersOwn(engine: StoreEngine) async throws {
        let (_, ann, bob) = try await twoUsers(engine)
        let first = try await ann.measurements.save(
            sampleCapture(comment: "first", recordedAt: 1000), records: sampleBatches(frames: 3))
        let third = try await ann.measurements.save(
            sampleCapture(comment: "third", recordedAt: 3000), records: sampleBatches(frames: 3))
        let bobs = try await bob.measurements.save(
            sampleCapture(comment: "bob's", recordedAt: 2000), records: sampleBatches(frames: 3))
        #expect(try await ann.measurements.list().map(\.comment) == ["third", "first"])
        #expect(try await bob.measurements.list().map(\.id) == [bobs.id])
        #expect(first.id < third.id)
    }

    @Test(arguments: StoreEngine.available)
    func oneUserCanNeverReachAnothersMeasurement(engine: StoreEngine) async throws {
        let (harness, ann, bob) = try await twoUsers(engine)
        let annsOwn = try await ann.measurements.save(sampleCapture(), records: sampleBatches(frames: 10))
        let missing = MeasurementID(annsOwn.id.rawValue + 1000)
        for id in [annsOwn.id, missing] {
            // The same answer for someone else's measurement and for none at all; the
            // library names no command (the CLI adds "; see sonde measurements list").
            let expected = "no measurement \(id) in your account"
            func isNotFound(_ error: any Error) -> Bool {
                (error as? SondeError)?.code == .notFound && (error as? SondeError)?.message == expected
            }
            await #expect { _ = try await bob.measurements.show(id: id) } throws: { isNotFound($0) }
            await #expect { try await bob.measurements.delete(id: id) } throws: { isNotFound($0) }
            await #expect { _ = try await bob.measurements.service.records(id: id, for: bob.account()) } throws: {
                isNotFound($0)
            }
            let path = harness.directory + "/stolen.csv"
            await #expect {
                try await bob.measurements.export(id: id, format: .csv, to: OutputFile(atomicallyReplacing: path))
            } throws: { isNotFound($0) }
            #expect(!FileManager.default.fileExists(atPath: path), "a refused export leaves no file")
        }
        let all = try await bob.measurements.exportAll(format: .csv, directory: harness.directory + "/bob-all")
        #expect(all == [harness.directory + "/bob-all/measurements.json"])
        #expect(try await ann.measurements.show(id: annsOwn.id) == annsOwn, "still there for Ann")
    }

    @Test(arguments: StoreEngine.available)
    func everythingNeedsALoggedInUser(engine: StoreEngine) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        try await ann.authentication.logout()
        await #expect(throws: AccountError.notLoggedIn) { _ = try await ann.measurements.list() }
        await #expect(throws: AccountError.notLoggedIn) {
            _ = try await ann.measurements.save(sampleCapture(), records: sampleBatches(frames: 2))
        }
        await #expect(throws: AccountError.notLoggedIn) {
            _ = try await ann.measurements.exportAll(format: .csv, directory: harness.directory + "/x")
        }
    }

    @Test(arguments: StoreEngine.available)
    func deleteRemovesTheMeasurementAndItsSeries(engine: StoreEngine) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        let kept = try await ann.measurements.save(sampleCapture(comment: "kept"), records: sampleBatches(frames: 30))
        let gone = try await ann.measurements.save(sampleCapture(comment: "gone"), records: sampleBatches(frames: 30))
        try await ann.measurements.delete(id: gone.id)
        #expect(try await ann.measurements.list().map(\.id) == [kept.id])
        let store = harness.stores.measurements
        #expect(try await store.batches(of: gone.id, owner: kept.owner) == nil)
        #expect(try await store.batches(of: kept.id, owner: kept.owner)?.count == 5)
        #expect(try await harness.isConsistent())
    }

    @Test(arguments: StoreEngine.available)
    func aCaptureShorterThanOneWindowSavesAndExportsNoRecords(engine: StoreEngine) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        let saved = try await ann.measurements.save(sampleCapture(), records: [])
        #expect(saved.frameCount == 0 && saved.hop == nil && saved.clock == nil)
        #expect(saved.summary.channels.map(\.means) == [[], []])
        for format in OutputFormat.allCases {
            let expected = try processOutput(
                [], columns: sampleCapture().columns, format: format, of: saved, in: harness.directory)
            #expect(try await export(ann, saved.id, format, in: harness.directory) == expected)
        }
    }

    @Test(arguments: StoreEngine.available)
    func recordsThatDoNotMatchTheCaptureAreRefused(engine: StoreEngine) async throws {
        let (_, ann, _) = try await twoUsers(engine)
        let good = sampleBatches(frames: 14)
        var wrongChannels = good
        wrongChannels[1].channelNames = ["x", "z"]
        var gap = good
        gap[1].firstFrame += 1
        var otherHop = good
        otherHop[1].hop = 256
        var shortValues = good
        shortValues[0].values.removeLast()
        var wrongColumns = sampleCapture()
        wrongColumns.columns.removeLast()
        let cases: [(MeasurementCapture, [RecordBatch])] = [
            (sampleCapture(), wrongChannels), (sampleCapture(), gap), (sampleCapture(), otherHop),
            (sampleCapture(), shortValues), (wrongColumns, good),
        ]
        for (capture, records) in cases {
            await #expect { _ = try await ann.measurements.save(capture, records: records) } throws: {
                ($0 as? SondeError)?.code == .invalidArgument && "\($0)".contains("measurement records, batch")
            }
        }
        #expect(try await ann.measurements.list().isEmpty, "nothing half-saved")
    }

    @Test(arguments: StoreEngine.available)
    func exportAllWritesOneFilePerMeasurementAndAnIndex(engine: StoreEngine) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        let older = try await ann.measurements.save(
            sampleCapture(comment: "older", recordedAt: 1000), records: sampleBatches(frames: 4))
        let newer = try await ann.measurements.save(
            sampleCapture(comment: "newer \"quoted\"", recordedAt: 2000), records: sampleBatches(frames: 6)
        )
        let directory = harness.directory + "/all/of/it"
        let files = try await ann.measurements.exportAll(format: .ndjson, directory: directory)
        #expect(
            files == [
                "\(directory)/measurement-\(newer.id).ndjson", "\(directory)/measurement-\(older.id).ndjson",
                "\(directory)/measurements.json",
            ])
        #expect(
            try await export(ann, newer.id, .ndjson, in: harness.directory)
                == Data(contentsOf: URL(fileURLWithPath: files[0])))
        let index =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: files[2]))) as? [[String: Any]]
        let entries = try #require(index)
        #expect(entries.map { $0["comment"] as? String } == ["newer \"quoted\"", "older"])
        #expect(entries.first?["recorded_at"] as? String == "1970-01-01T00:33:20Z")
        #expect((entries.first?["settings"] as? [String: Any])?["window"] as? Int == 1024)
        let summary = try #require(entries.first?["summary"] as? [[String: Any]])
        #expect(summary.first?["channel"] as? String == "x")
        // Foundation's JSON parser may miss the last bit; the text itself is the shortest exact one.
        let rms = try #require((summary.first?["mean"] as? [String: Any])?["rms"] as? Double)
        let expected = try #require(newer.summary.mean("rms", channel: "x"))
        #expect(abs(rms - expected) <= 1e-15 * abs(expected))
        let indexText = try String(contentsOf: URL(fileURLWithPath: files[2]), encoding: .utf8)
        #expect(indexText.contains("\"rms\":\(expected.description)"))
    }

    @Test(arguments: StoreEngine.available)
    func concurrentSavesAllLand(engine: StoreEngine) async throws {
        let (harness, ann, _) = try await twoUsers(engine)
        let saved = try await withThrowingTaskGroup(of: SavedMeasurement.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await ann.measurements.save(
                        sampleCapture(comment: "run \(index)"), records: sampleBatches(frames: 20))
                }
            }
            return try await group.reduce(into: [SavedMeasurement]()) { $0.append($1) }
        }
        #expect(Set(saved.map(\.id)).count == 16)
        #expect(try await ann.measurements.list().count == 16)
        #expect(try await harness.isConsistent())
    }
}
