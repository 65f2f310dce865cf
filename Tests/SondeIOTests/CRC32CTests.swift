import Foundation
import Testing
import _SondeTestSupport

@testable import SondeIO

/// CRC-32C against its published check values (RFC 3720 appendix B.4 and the catalogue's
/// "123456789"), whole and fed in uneven pieces, as OutputFile feeds it.
struct CRC32CTests {
    @Test(arguments: [
        (Array("123456789".utf8), UInt32(0xE306_9283)),
        ([UInt8](repeating: 0, count: 32), UInt32(0x8A91_36AA)),
        ([UInt8](repeating: 0xFF, count: 32), UInt32(0x62A8_AB43)),
        (Array(0..<32), UInt32(0x46DD_794E)),
        ([], UInt32(0)),
    ])
    func knownValues(bytes: [UInt8], expected: UInt32) {
        var whole = CRC32C()
        whole.update(bytes)
        #expect(whole.value == expected)
        var pieces = CRC32C()
        var start = 0
        for size in [1, 3, 8, 9, 2, 100] where start < bytes.count {
            let end = min(bytes.count, start + size)
            pieces.update(bytes[start..<end])
            start = end
        }
        #expect(pieces.value == expected)
        var tables = CRC32C()
        bytes.withUnsafeBytes { tables.updateWithTables($0) }
        #expect(tables.value == expected)
    }

    /// The CPU's instruction and the tables agree on 1 MiB of varied bytes fed at every
    /// alignment and length (the instruction path runs only where the CPU has it).
    @Test func instructionAndTablesAgree() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(CRC32C.usesHardware, "every x86-64 CPU this project runs on has SSE 4.2")
        bytes.withUnsafeBytes { raw in
            for (offset, length) in [(0, raw.count), (1, 7), (3, 4093), (5, 65_537), (7, raw.count - 7)] {
                let slice = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                var fast = CRC32C()
                fast.update(slice)
                var tables = CRC32C()
                tables.updateWithTables(slice)
                #expect(fast.value == tables.value, "offset \(offset), length \(length)")
            }
        }
    }

    @Test func fileChecksumMatchesTheBytes() throws {
        let path = TestScratch.root.appendingPathComponent("crc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: path) }
        let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try Data(bytes).write(to: path)
        var expected = CRC32C()
        expected.update(bytes)
        #expect(try FileChecksum.of(path: path.path) == FileChecksum(size: bytes.count, crc32c: expected.value))
        #expect(try FileChecksum.of(path: path.path + ".missing") == nil)
        #expect(CRC32C.hex(0xE306_9283) == "e3069283" && CRC32C.hex(0xAB) == "000000ab")
    }
}
