import Foundation
import SondeIO
import SondeKit
import Testing
import _SondeTestSupport

/// `FileInfoText`, what `sonde info` prints, on a CSV of two named channels.
@Suite struct FileInfoTextTests {
    static func info() throws -> FileInfo {
        let path = try TestScratch.folder("file-info-text").appendingPathComponent("two.csv").path
        let rows = (0..<100).map { "\(Double($0) / 1000),\($0 % 7),\($0 % 3)" }
        try (["time,accel_x,accel_y"] + rows).joined(separator: "\n").appending("\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return try FileInfo.read(path: path)
    }

    @Test func theTableAlignsItsColumnsAndEndsWithoutBlanks() throws {
        let info = try Self.info()
        let lines = FileInfoText.table(info).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("\(info.path): ") == true, "\(lines.first ?? "")")
        let header = try #require(lines.dropFirst().first)
        #expect(header.hasPrefix("name") && header.hasSuffix("properties"), "\(header)")
        #expect(lines.count >= 2 + info.entries.count)
        for line in lines { #expect(!line.hasSuffix(" "), "\(line)") }
        // Each column starts where the header's does.
        let channelColumn = try #require(header.range(of: "channel")).lowerBound
        for (entry, line) in zip(info.entries, lines.dropFirst(2)) {
            let offset = header.distance(from: header.startIndex, to: channelColumn)
            let cell = line.dropFirst(offset)
            #expect(cell.hasPrefix(entry.refusal == nil ? "yes" : "no: "), "\(line)")
        }
    }

    @Test func theJSONNamesEveryEntry() throws {
        let info = try Self.info()
        let json = FileInfoText.json(info).text
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(parsed["file"] as? String == info.path)
        #expect(parsed["format"] as? String == info.format)
        let entries = try #require(parsed["entries"] as? [[String: Any]])
        #expect(entries.map { $0["name"] as? String } == info.entries.map(\.name))
        #expect(entries.map { $0["channel"] as? Bool } == info.entries.map { $0.refusal == nil })
    }
}
