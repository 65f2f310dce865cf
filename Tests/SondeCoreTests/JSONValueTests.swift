import Foundation
import SondeCore
import Testing
import _SondeTestSupport

/// The one JSON writer: what it writes reads back, with the records' number spelling.
@Suite struct JSONValueTests {
    @Test func writesCompactTextInTheGivenOrder() {
        let value = JSONValue.object([
            "b": .integer(-12), "a": .number(0.1), "t": .bool(true), "n": .null, "s": .string("q\"\\\n\t\u{1}é/"),
            "list": .array([.number(1e-5), .number(1e16), .number(.infinity), .number(-0.0)]),
            "raw": .verbatim("{\"x\":[1]}"),
        ])
        #expect(
            value.text
                == #"{"b":-12,"a":0.1,"t":true,"n":null,"s":"q\"\\\n\t\u0001é/","list":[1e-05,1e+16,null,-0.0],"raw":{"x":[1]}}"#
        )
    }

    /// Random strings and numbers come back from Foundation's reader unchanged.
    @Test func randomDocumentsReadBack() throws {
        var random = SplitMix64(seed: 22)
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &random))
            }
            let text = String(String.UnicodeScalarView(scalars))
            var number = Double(bitPattern: random.next())
            if !number.isFinite { number = 0 }  // written as null; `writesCompactText...` checks that
            let value = JSONValue.object(["text": .string(text), "number": .number(number)])
            let decoded = try JSONDecoder().decode([String: JSONRecord.Value].self, from: Data(value.text.utf8))
            #expect(decoded["text"]?.text == text)
            #expect(decoded["number"]?.number == number, "\(number) -> \(value.text)")
        }
    }

    @Test func linesTextPutsOneElementPerLine() {
        let text = JSONValue.linesText([.object(["a": .integer(1)]), .strings(["x"])])
        #expect(text == "[\n  {\"a\":1},\n  [\"x\"]\n]\n")
        #expect(JSONValue.linesText([]) == "[\n]\n")
    }
}
