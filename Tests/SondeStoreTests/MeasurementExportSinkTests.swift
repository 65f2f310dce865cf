import Foundation
import SondeAccounts
import SondeCore
import SondeIO
import SondeMeasurements
import SondeStore
import Testing

/// Keeps what an `OutputFile(sink:)` hands over, and how it ended.
final class RecordingSink: ByteSink {
    var bytes = Data()
    var chunks = 0
    var finished = false
    var abandoned = false

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
        chunks += 1
    }

    func finish() throws { finished = true }
    func abandon() { abandoned = true }
}

/// Issue 29: one service for every user of a process, acting for the account each call
/// names, and exports into any byte sink (a download) as into a file.
@Suite struct MeasurementExportSinkTests {
    @Test(arguments: OutputFormat.allCases)
    func anExportIntoASinkIsTheFileExportByteForByte(format: OutputFormat) async throws {
        let harness = try await StoreHarness()
        let ann = harness.client("ann")
        let account = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        let service = ann.measurements.service
        // Enough frames for several 1 MiB flushes in the text formats.
        let saved = try await service.save(
            sampleCapture(), records: sampleBatches(frames: 30_000, batchSize: 997), for: account)
        let path = harness.directory + "/export.\(format.rawValue)"
        try await service.export(
            id: saved.id, format: format, parquet: ParquetWriterOptions(), for: account,
            to: OutputFile(atomicallyReplacing: path))
        let sink = RecordingSink()
        try await service.export(
            id: saved.id, format: format, parquet: ParquetWriterOptions(), for: account, to: OutputFile(sink: sink))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(sink.bytes == file, "\(format): \(sink.bytes.count) bytes in the sink, \(file.count) in the file")
        #expect(!file.isEmpty)
        #expect(sink.finished && !sink.abandoned)
        if format != .parquet { #expect(sink.chunks > 1, "flushed as it went, not all at the end") }
    }

    @Test func aRefusedExportAbandonsTheSink() async throws {
        let harness = try await StoreHarness()
        let ann = harness.client("ann")
        let account = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        let sink = RecordingSink()
        await #expect {
            try await ann.measurements.service.export(
                id: MeasurementID(99), format: .csv, parquet: ParquetWriterOptions(), for: account,
                to: OutputFile(sink: sink))
        } throws: { ($0 as? SondeError)?.code == .notFound }
        #expect(sink.abandoned && !sink.finished && sink.bytes.isEmpty)
    }

    /// A sink that fails part-way: the error says where, and the sink is abandoned.
    @Test func aFailingSinkAbandonsTheExport() async throws {
        final class FailingSink: ByteSink {
            var abandoned = false
            func write(_ bytes: UnsafeRawBufferPointer) throws { throw CocoaError(.fileWriteOutOfSpace) }
            func finish() throws {}
            func abandon() { abandoned = true }
        }
        let harness = try await StoreHarness()
        let ann = harness.client("ann")
        let account = try await ann.authentication.register(email: "ann@example.com", password: "correct horse")
        let service = ann.measurements.service
        let saved = try await service.save(sampleCapture(), records: sampleBatches(frames: 30_000), for: account)
        let sink = FailingSink()
        await #expect {
            try await service.export(
                id: saved.id, format: .csv, parquet: ParquetWriterOptions(), for: account,
                to: OutputFile(sink: sink, name: "the download of measurement \(saved.id)"))
        } throws: {
            ($0 as? SondeError)?.code == .io && "\($0)".contains("the download of measurement \(saved.id)")
        }
        #expect(sink.abandoned)
    }

    /// One service value serves both users: each call is for the account it names.
    @Test func oneServiceActsForTheAccountEachCallNames() async throws {
        let harness = try await StoreHarness()
        let ann = try await harness.client("ann").authentication.register(
            email: "ann@example.com", password: "correct horse")
        let bob = try await harness.client("bob").authentication.register(
            email: "bob@example.com", password: "battery staple")
        let service = LocalMeasurementService(store: harness.stores.measurements)
        let annsOwn = try await service.save(
            sampleCapture(comment: "ann's"), records: sampleBatches(frames: 5), for: ann)
        let bobsOwn = try await service.save(
            sampleCapture(comment: "bob's"), records: sampleBatches(frames: 5), for: bob)
        #expect(try await service.list(for: ann).map(\.id) == [annsOwn.id])
        #expect(try await service.list(for: bob).map(\.id) == [bobsOwn.id])
        #expect(try await service.show(id: annsOwn.id, for: ann).comment == "ann's")
        await #expect { _ = try await service.show(id: annsOwn.id, for: bob) } throws: {
            ($0 as? SondeError)?.code == .notFound
        }
        await #expect { try await service.delete(id: annsOwn.id, for: bob) } throws: {
            ($0 as? SondeError)?.code == .notFound
        }
        #expect(try await service.list(for: ann).count == 1, "Bob's delete removed nothing of Ann's")
    }
}
