import Foundation
import SondeCore
import SondeMeasurements
import SondeStoreFormat
import Testing

/// `StoredJSONReader` against Foundation's `JSONDecoder` (the reader it replaced): the same
/// values for what `StoredJSON` writes and for any other JSON of the same shape.
@Suite struct StoredJSONReaderTests {
    private struct Summary: Decodable, Equatable {
        struct Channel: Decodable, Equatable {
            var name: String
            var means: [Double]
        }
        var frames: Int
        var columns: [String]
        var channels: [Channel]
    }

    private func foundation(_ text: String) throws -> MeasurementSummary {
        let summary = try JSONDecoder().decode(Summary.self, from: Data(text.utf8))
        return MeasurementSummary(
            columns: summary.columns, channels: summary.channels.map { .init(name: $0.name, means: $0.means) },
            frameCount: summary.frames)
    }

    private func bitPatterns(_ summary: MeasurementSummary) -> [[UInt64]] {
        summary.channels.map { $0.means.map(\.bitPattern) }
    }

    /// Written by `StoredJSON.encode` from values of every magnitude, read back bit for bit,
    /// as `JSONDecoder` reads them.
    @Test func whatStoredJSONWritesReadsBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        let reader = StoredJSONReader()
        for round in 0..<200 {
            let means = (0..<19).map { index -> Double in
                switch (round + index) % 5 {
                case 0: Double.random(in: -1e6...1e6, using: &generator)
                case 1: Double(bitPattern: UInt64.random(in: 0x0010_0000_0000_0000...0x7FEF_FFFF_FFFF_FFFF))
                case 2: -Double(bitPattern: UInt64.random(in: 1...0x000F_FFFF_FFFF_FFFF))  // subnormal
                case 3: Double(Int.random(in: -1000...1000, using: &generator))
                default: index == 0 ? -0.0 : 1 / Double(index)
                }
            }
            let summary = MeasurementSummary(
                columns: (0..<19).map { "column \($0)" },
                channels: [.init(name: "x", means: means), .init(name: "y", means: means.reversed())],
                frameCount: round * 1000)
            let text = try StoredJSON.encode(summary)
            let read = try StoredJSON.decodeSummary(text, with: reader)
            let listing = try reader.mainValues(text)
            // The listed part a store keeps reads as the same values (in one pass).
            let listed = try reader.mainValues(StoredJSON.encodeListed(summary))
            #expect(listed.frames == listing.frames && listed.channels == listing.channels)
            let shown = MeasurementListing.shownColumns(of: summary.columns)
            #expect(
                listing.channels.map { $0.values.map(\.mean.bitPattern) }
                    == summary.channels.map { channel in
                        shown.map { channel.means[$0].bitPattern }
                    })
            #expect(bitPatterns(read) == bitPatterns(summary), "\(text)")
            #expect(read.columns == summary.columns && read.frameCount == summary.frameCount)
            #expect(bitPatterns(try foundation(text)) == bitPatterns(read))
        }
    }

    /// Another writer's JSON: spaces and newlines, other key orders, keys a later version
    /// might add, every string escape.
    @Test(arguments: [
        #"{"frames": 3, "columns": ["rms", "peak"], "channels": [{"name": "x", "means": [1.5, -2e-3]}]}"#,
        "{\n  \"channels\" : [ { \"means\" : [ 0.1 , 1E+2 ] , \"name\" : \"a\\\"b\\\\c\\/d\" } ] ,\n  \"columns\":[\"r\\u00e9sum\\u00E9\",\"\\ud83d\\ude00\"],\"frames\":0 }\t",
        #"{"extra":{"nested":[true,false,null,"s",{"k":1}]},"columns":["\b\f\n\r\t"],"channels":[],"frames":7}"#,
        #"{"columns":[],"channels":[{"unit":"g","means":[],"name":"","more":[1,[2]]}],"frames":1000}"#,
        // Escaped keys (StoredJSON never writes them) read as the names they spell.
        #"{"fr\u0061mes":2,"c\u006flumns":["rms","peak"],"channels":[{"n\u0061me":"x","\u006deans":[0.5,7]}]}"#,
    ])
    func anyJSONOfTheShapeReadsAsFoundationReadsIt(text: String) throws {
        let read = try StoredJSON.decodeSummary(text)
        let expected = try foundation(text)
        #expect(read.columns == expected.columns)
        #expect(read.frameCount == expected.frameCount)
        #expect(read.channels.map(\.name) == expected.channels.map(\.name))
        #expect(bitPatterns(read) == bitPatterns(expected))
        // A listing's reader gives the shown means of the same values.
        let listing = try StoredJSONReader().mainValues(text)
        // Read from a database's bytes, the same.
        let fromBytes = try Array(text.utf8).withUnsafeBytes { try StoredJSONReader().mainValues(utf8: $0) }
        #expect(fromBytes.frames == listing.frames && fromBytes.channels == listing.channels)
        let shown = MeasurementListing.shownColumns(of: expected.columns)
        #expect(listing.frames == expected.frameCount)
        #expect(listing.channels.map(\.name) == expected.channels.map(\.name))
        for (channel, whole) in zip(listing.channels, expected.channels) {
            let wanted = shown.filter { $0 < whole.means.count }
            #expect(channel.values.map(\.column) == wanted.map { expected.columns[$0] })
            #expect(channel.values.map(\.mean.bitPattern) == wanted.map { whole.means[$0].bitPattern })
        }
    }

    @Test func namesAndClocksReadBack() throws {
        let names = ["x", "accel \"z\"", "ü\u{1}", "\u{1F600}"]
        #expect(try StoredJSON.decodeStrings(StoredJSON.encode(names)) == names)
        for clock in [
            RecordClock.seconds(sampleRate: 25_600, offset: 0.125),
            .wallClock(sampleRate: 51_200, epochOfFirstSample: 1_800_000_000.000_001),
        ] {
            #expect(try StoredJSON.decodeClock(StoredJSON.encode(clock)) == clock)
        }
    }

    /// Damage is an error naming where it was found, never a wrong value.
    @Test(arguments: [
        ("", "expected '{'"),
        (#"{"columns":["a"],"channels":[],"frames":1"#, "expected '}'"),
        (#"{"columns":["a"],"channels":[],"frames":1} x"#, "text after the value"),
        (#"{"columns":["a],"channels":[],"frames":1}"#, "expected ']'"),
        (#"{"columns":["a"],"channels":[],"frames":1.5}"#, "expected a whole number"),
        (#"{"columns":["a"],"channels":[{"name":"x","means":[null]}],"frames":1}"#, "expected a number"),
        (#"{"columns":["a"],"channels":[{"name":"x"}],"frames":1}"#, "a channel without name or means"),
        (#"{"columns":["\ud83d"],"channels":[],"frames":1}"#, "half a surrogate pair"),
        (#"{"columns":["\q"],"channels":[],"frames":1}"#, "an unknown escape"),
        ("{\"columns\":[\"a\u{9}\"],\"channels\":[],\"frames\":1}", "a control character"),
        ("{\"col\u{9}umns\":[\"a\"],\"channels\":[],\"frames\":1}", "a control character"),
        (#"{"columns":["a"],"channels":[],"frames":1,"x"#, "a string without its closing quote"),
        (#"{"channels":[],"frames":1}"#, "a summary without columns"),
    ])
    func damageIsAnErrorThatSaysWhere(text: String, problem: String) throws {
        #expect {
            _ = try StoredJSON.decodeSummary(text)
        } throws: { error in
            let message = (error as? SondeError)?.message ?? ""
            return message.hasPrefix("stored summary, byte ") && message.contains(problem)
        }
    }
}
