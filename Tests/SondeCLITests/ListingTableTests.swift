import Foundation
import SondeCore
import SondeMeasurements
import Testing
import _SondeTestSupport

/// `sonde measurements list`'s table, built as bytes (`ListingTable`): columns aligned in
/// characters (not bytes) when a device or comment is not ASCII, a comment's line break
/// written as a space, no trailing spaces.
@Suite struct ListingTableTests {
    @Test func columnsAlignInCharactersAndLinesStayLines() async throws {
        let user = try AccountUser()
        defer { try? FileManager.default.removeItem(at: user.home.deletingLastPathComponent()) }
        for result in try user.registerAndLogIn("ann@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        let (session, measurements) = try user.services()
        let owner = try await session.requireAccount()
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
        let list = try user.run(["measurements", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "\(list.stdout)")
        let meanColumn = try #require(lines.first?.firstRange(of: "MEAN")).lowerBound
        let offset = lines[0].distance(from: lines[0].startIndex, to: meanColumn)
        for line in lines.dropFirst() {
            let start = try #require(line.firstRange(of: "x: rms")).lowerBound
            #expect(line.distance(from: line.startIndex, to: start) == offset, "\(line)")
            #expect(line.last != " ", "trailing space: \(line.debugDescription)")
        }
        #expect(lines.contains { $0.hasSuffix("x: rms 0.625, peak 1.875  Lüfter, zweite Zeile") }, "\(list.stdout)")
        #expect(lines.contains { $0.hasSuffix("x: rms 0.625, peak 1.875") && $0.contains("sim-1 ") })
    }
}
