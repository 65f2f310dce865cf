import Foundation
import SondeCore
import Testing

/// The JSON reader beside the writer: what `JSONValue` writes reads back value by value,
/// unknown values are skipped, and malformed text fails naming its byte.
@Suite struct JSONReaderTests {
    /// Numbers by `strtod`, whose results sonde's own scanner (SondeIO's) gives exactly.
    private struct StrtodNumbers: JSONNumberScanner {
        func number(at start: UnsafePointer<UInt8>) -> (value: Double, end: UnsafePointer<UInt8>)? {
            var end: UnsafeMutablePointer<CChar>?
            let value = start.withMemoryRebound(to: CChar.self, capacity: 1) { strtod($0, &end) }
            guard let end, UnsafeRawPointer(end) != UnsafeRawPointer(start) else { return nil }
            return (value, UnsafeRawPointer(end).assumingMemoryBound(to: UInt8.self))
        }
    }

    private func read<T>(_ text: String, _ body: (inout JSONReader<StrtodNumbers>) throws -> T) throws -> T {
        var bytes = Array(text.utf8)
        bytes.append(0)
        let count = bytes.count - 1
        return try bytes.withUnsafeBufferPointer { buffer in
            let start = try #require(buffer.baseAddress)
            var reader = JSONReader(start: start, end: start + count, numbers: StrtodNumbers(), what: "test")
            let value = try body(&reader)
            reader.skipSpace()
            #expect(reader.position == reader.end)
            return value
        }
    }

    @Test func readsWhatJSONValueWritesAndSkipsTheRest() throws {
        let text = JSONValue.object([
            "skipped": .object(["deep": .array([.string("]}\""), .null, .bool(true), .number(-1.5e-7)])]),
            "name": .string("q\"\\\n\t\u{1}é/😀"), "means": .numbers([0.1, -2, 1e300]), "frames": .integer(12),
        ]).text
        let (name, means, frames) = try read(text) { reader in
            var name = ""
            var means: [Double] = []
            var frames = 0
            try reader.object { key, reader in
                switch key {
                case "name": name = try reader.string()
                case "means": means = try reader.numbers()
                case "frames": frames = try reader.integer()
                default: try reader.skipValue()
                }
            }
            return (name, means, frames)
        }
        #expect(name == "q\"\\\n\t\u{1}é/😀" && means == [0.1, -2, 1e300] && frames == 12)
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let strings = try read(#" [ "a\u00e9\ud83d\ude00b" , "\/\b\f\r" ] "#) { try $0.strings() }
        #expect(strings == ["aé😀b", "/\u{8}\u{C}\r"])
    }

    @Test(arguments: [
        (#"{"a" 1}"#, "test, byte 5: expected ':'"),
        (#"["x""#, "test, byte 4: expected ']'"),
        (#"[1.5]"#, "test, byte 4: expected a whole number"),
        (#"["\ud800"]"#, "test, byte 8: half a surrogate pair"),
    ])
    func malformedTextFailsNamingItsByte(text: String, message: String) throws {
        let error = try #require(
            throws: SondeError.self,
            performing: {
                try read(text) { reader in
                    if text.hasPrefix("{") {
                        try reader.object { _, reader in try reader.skipValue() }
                    } else if text.contains("1.5") {
                        try reader.array { _ = try $0.integer() }
                    } else {
                        _ = try reader.strings()
                    }
                }
            })
        #expect(error.message == message)
    }
}
