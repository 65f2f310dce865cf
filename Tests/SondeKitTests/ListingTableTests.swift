import Foundation
import SondeAccounts
import SondeCore
import SondeKit
import SondeMeasurements
import Testing
import _SondeTestSupport

/// `sonde measurements list`'s table, built as bytes (`ListingTable`): columns aligned in
/// characters (not bytes) when a device or comment is not ASCII, a comment's line break
/// written as a space, no trailing spaces. Moved from the CLI suite: the table is built
/// here from the same services and listing batches the command uses, without a process.
@Suite struct ListingTableTests {
    /// A registered user's services in a scratch home.
    static func services(_ email: String) async throws -> (LocalServices, Account) {
        let services = try LocalServices.open(environment: [
            "SONDE_HOME": try TestScratch.folder("listing-table").path, "SONDE_SCRYPT_LOG_N": "10",
        ])
        return (services, try await services.session.register(email: email, password: "correct horse 1"))
    }

    /// What `sonde measurements list` writes for `owner`.
    static func listing(_ services: LocalServices, for owner: Account) async throws -> String {
        var table = ListingTable()
        for try await batch in try services.measurements.listingBatches(for: owner, offset: 0, limit: nil) {
            table.append(batch)
        }
        var bytes: [UInt8] = []
        table.write { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func columnsAlignInCharactersAndLinesStayLines() async throws {
        let (services, owner) = try await Self.services("ann@example.com")
        let measurements = services.measurements
        for (index, (device, comment)) in [
            ("sim-pümpe-ü", "Lüfter, zweite\nZeile"), ("sim-1", ""), ("sim-bearing-01", "plain"),
        ].enumerated() {
            let batch = RecordBatch(
                fileName: "live", channelNames: ["x"], columnCount: 2, firstFrame: 0, frameCount: 2, hop: 512,
                clock: .seconds(sampleRate: 25_600, offset: 0), values: [0.5, 1.25, 0.75, 2.5])
            _ = try await measurements.save(
                MeasurementCapture(
                    deviceID: device, settings: "{}", comment: comment, channelNames: ["x"], columns: ["rms", "peak"],
                    recordedAt: 1_800_000_000 + Double(index)),
                records: [batch], for: owner)
        }
        let stdout = try await Self.listing(services, for: owner)
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "\(stdout)")
        let meanColumn = try #require(lines.first?.firstRange(of: "MEAN")).lowerBound
        let offset = lines[0].distance(from: lines[0].startIndex, to: meanColumn)
        for line in lines.dropFirst() {
            let start = try #require(line.firstRange(of: "x: rms")).lowerBound
            #expect(line.distance(from: line.startIndex, to: start) == offset, "\(line)")
            #expect(line.last != " ", "trailing space: \(line.debugDescription)")
        }
        #expect(lines.contains { $0.hasSuffix("x: rms 0.625, peak 1.875  Lüfter, zweite Zeile") }, "\(stdout)")
        #expect(lines.contains { $0.hasSuffix("x: rms 0.625, peak 1.875") && $0.contains("sim-1 ") })
    }
}

extension ListingTableTests {
    /// Enough lines for the table's bytes to fill several blocks, one line longer than any
    /// block's room: every line equals the one aligned here from the saved cells.
    @Test func manyLinesAcrossBlocksAlignAsOneTable() async throws {
        let (services, owner) = try await Self.services("bo@example.com")
        let measurements = services.measurements
        let count = 700
        var saved: [(id: Int64, recordedAt: Double, device: String, comment: String)] = []
        for index in 0..<count {
            let device = index % 7 == 0 ? "sim-pümpe-\(index)" : "sim-\(index)"
            let comment =
                index == 300
                ? String(repeating: "long ", count: 1_000)
                : "run \(index) " + String(repeating: "ß", count: index % 5) + String(repeating: "x", count: 300)
            let recordedAt = 1_800_000_000 + Double(index) * 61
            let batch = RecordBatch(
                fileName: "live", channelNames: ["x"], columnCount: 2, firstFrame: 0, frameCount: 2, hop: 512,
                clock: .seconds(sampleRate: 25_600, offset: 0), values: [0.5, 1.25, 0.75, 2.5])
            let measurement = try await measurements.save(
                MeasurementCapture(
                    deviceID: device, settings: "{}", comment: comment, channelNames: ["x"], columns: ["rms", "peak"],
                    recordedAt: recordedAt),
                records: [batch], for: owner)
            saved.append((measurement.id.rawValue, recordedAt, device, comment))
        }
        let stdout = try await Self.listing(services, for: owner)
        #expect(stdout.utf8.count > 3 << 16, "fewer bytes than three blocks: \(stdout.utf8.count)")

        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let rows =
            [["ID", "RECORDED (UTC)", "DEVICE", "WINDOWS", "MEAN", "COMMENT"]]
            + saved.reversed().map { row in
                [
                    String(row.id), formatter.string(from: Date(timeIntervalSince1970: row.recordedAt)), row.device,
                    "2",
                    "x: rms 0.625, peak 1.875", row.comment,
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let expected = rows.map { row in
            var line = row.enumerated().map { column, cell in
                column == 5 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }.joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
        #expect(stdout == expected)
    }
}
