import Foundation
import SondeCore
import Testing

/// The JSON reader beside the writer: what `JSONValue` writes reads back value by value,
/// unknown values are skipped, and malformed text fails naming its byte.
@Suite struct JSONReaderTests {
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

    /// Whole numbers in plain digits read exactly, past 2^53 where a double rounds (a
    /// manifest's nanosecond times, a draft's bit patterns); other spellings still read.
    @Test func wholeNumbersAndBitPatternsReadExactly() throws {
        let nanoseconds = 1_764_403_200_123_456_789
        let text = JSONValue.object([
            "mtime": .integer(nanoseconds), "min": .integer(Int.min), "bits": .verbatim(String(UInt64.max)),
            "pi": .verbatim(String(Double.pi.bitPattern)), "spelled": .verbatim("1e3"),
        ]).text
        let read = try read(text) { reader in
            var values: [String: String] = [:]
            try reader.object { key, reader in
                switch key {
                case "mtime", "min", "spelled":
                    values[String(decoding: key.bytes, as: UTF8.self)] = "\(try reader.integer())"
                default: values[String(decoding: key.bytes, as: UTF8.self)] = "\(try reader.unsignedInteger())"
                }
            }
            return values
        }
        #expect(read["mtime"] == "\(nanoseconds)" && Int(exactly: Double(nanoseconds)) != nanoseconds)
        #expect(read["min"] == "\(Int.min)" && read["spelled"] == "1000")
        #expect(read["bits"] == "\(UInt64.max)" && read["pi"] == "\(Double.pi.bitPattern)")
        #expect(throws: SondeError.self) { try self.read("18446744073709551616") { _ = try $0.unsignedInteger() } }
        #expect(throws: SondeError.self) { try self.read("-1") { _ = try $0.unsignedInteger() } }
        #expect(throws: SondeError.self) { try self.read("9223372036854775808") { _ = try $0.integer() } }
    }

    /// `value()` reads any text back to the tree `JSONValue` wrote, in its order; booleans
    /// and nulls read by name.
    @Test func anyValueReadsBackAsTheTreeWritten() throws {
        let tree = JSONValue.object([
            "z": .array([.bool(true), .bool(false), .null, .integer(-3), .number(0.1), .number(-2.5e-300)]),
            "a": .object(["nested": .strings(["é", "\"/"])]), "n": .integer(Int.max),
        ])
        #expect(try JSONText.value(tree.text, what: "t") == tree)
        #expect(try JSONText.value(" [ true , null ] ", what: "t") == .array([.bool(true), .null]))
        #expect(
            try read(" [true, false, null] ") { reader in
                var flags: [Bool?] = []
                try reader.array { flags.append($0.takeNull() ? nil : try $0.bool()) }
                return flags
            } == [true, false, nil])
        let error = try #require(throws: SondeError.self) { try JSONText.value(#"{"a":tru}"#, what: "t") }
        #expect(error.message == "t, byte 5: expected true or false")
        let after = try #require(throws: SondeError.self) { try JSONText.value("[1] x", what: "t") }
        #expect(after.message == "t, byte 4: text after the value")
    }
}
