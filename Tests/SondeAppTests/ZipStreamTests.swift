import Foundation
import Testing
import ZIPFoundation
import _SondeTestSupport

@testable import SondeApp

/// The streamed ZIP (issue 44, item 10): entries written front to back with data
/// descriptors read back by ZIPFoundation byte for byte, an empty entry included; the
/// offsets hold when entries are large enough to span many deflate blocks.
@Suite struct ZipStreamTests {
    @Test func entriesWrittenAsTheyComeReadBackExactly() async throws {
        let folder = try TestScratch.folder("sonde-zip-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        let contents: [(String, [UInt8])] = [
            (
                "measurements/measurement-2.csv",
                Array("time,channel,rms\n".utf8) + (0..<200_000).map { UInt8($0 % 7 + 48) }
            ),
            ("measurements/empty.csv", []),
            ("measurements/noise.bin", (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            ("measurements/measurements.json", Array("{\"id\":1,\"comment\":\"ü\"}\n".utf8)),
        ]
        var zip = ZipStream(modified: Date(timeIntervalSince1970: 1_790_000_000))
        var archive: [UInt8] = []
        for (index, (name, bytes)) in contents.enumerated() {
            let source = folder.appendingPathComponent("source-\(index)").path
            let deflated = folder.appendingPathComponent("deflated-\(index)").path
            try Data(bytes).write(to: URL(fileURLWithPath: source))
            archive += try zip.begin(name)
            let (crc, compressedSize, size) = try await ExportDownload.deflate(source, into: deflated)
            #expect(size == UInt64(bytes.count))
            let data = try Data(contentsOf: URL(fileURLWithPath: deflated))
            #expect(UInt64(data.count) == compressedSize)
            archive += data
            archive += try zip.end(crc: crc, compressedSize: compressedSize, size: size)
        }
        archive += try zip.finish()
        #expect(zip.written == UInt64(archive.count))
        let read = try Archive(data: Data(archive), accessMode: .read)
        var names: [String] = []
        for entry in read {
            names.append(entry.path)
            var extracted = Data()
            _ = try read.extract(entry) { extracted.append($0) }
            let expected = try #require(contents.first { $0.0 == entry.path }?.1)
            #expect(Array(extracted) == expected, "\(entry.path)")
        }
        #expect(names == contents.map(\.0))
        // The noise does not compress: deflate's stored blocks are still read back.
        #expect(archive.count > 300_000)
    }

    @Test func outOfTurnCallsAreRefused() throws {
        var zip = ZipStream()
        #expect(throws: ZipStreamError.self) { _ = try zip.end(crc: 0, compressedSize: 0, size: 0) }
        _ = try zip.begin("a")
        #expect(throws: ZipStreamError.self) { _ = try zip.finish() }
        #expect(throws: ZipStreamError.self) {
            _ = try zip.end(crc: 0, compressedSize: UInt64(UInt32.max) + 1, size: 1)
        }
    }
}
