import Foundation
import Testing
import _SondeTestSupport

/// One case of `Tests/Fixtures/cases.json`: inputs and `sonde process` options, with the
/// records `reference.py` (numpy/scipy/librosa) computed for them.
struct ReferenceCase: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var inputs: [String]
    var args: [String]
    var expected: String
    var fs: Double
    var expectedNote: String?

    enum CodingKeys: String, CodingKey {
        case name, inputs, args, expected, fs
        case expectedNote = "expected_note"
    }

    var testDescription: String { name }

    static func all() throws -> [ReferenceCase] {
        try JSONDecoder().decode([ReferenceCase].self, from: Fixtures.data("cases.json"))
    }
}

@Suite struct ReferenceCaseTests {
    /// Every case agrees with the reference record for record, within docs/features.md's tolerances.
    @Test(arguments: try ReferenceCase.all())
    func processMatchesReference(_ testCase: ReferenceCase) throws {
        let result = try expectProcessMatchesReference(
            inputs: testCase.inputs, arguments: testCase.args, expected: testCase.expected
        ) { columns, got, want, unfilteredPeak in
            FeatureTolerance.mismatches(
                columns: columns, got: got, want: want, sampleRate: testCase.fs, unfilteredPeak: unfilteredPeak)
        }
        if let note = testCase.expectedNote {
            #expect(
                result.stderr.contains(note), "expected a note containing '\(note)' on stderr, got: \(result.stderr)")
        }
    }

    /// Each output format carries the same values: JSON and NDJSON agree with CSV exactly.
    @Test func formatsCarryIdenticalValues() throws {
        let testCase = try #require(try ReferenceCase.all().first { $0.inputs.count == 1 })
        let base = ["process"] + testCase.inputs + testCase.args
        let csv = RecordTable(csv: try SondeBinary.run(base + ["--format", "csv"]).stdout)
        let lines = try JSONRecord.decodeLines(try SondeBinary.run(base + ["--format", "ndjson"]).stdout)
        let array = try JSONRecord.decodeArray(try SondeBinary.run(base + ["--format", "json"]).stdout)
        #expect(!csv.rows.isEmpty)
        #expect(lines.count == csv.rows.count && array.count == csv.rows.count)
        for (row, (line, object)) in zip(csv.rows, zip(lines, array)) {
            for (column, name) in csv.columns.enumerated() {
                let expected: JSONRecord.Value =
                    name == "channel" ? .text(row[column]) : .number(Double(row[column]) ?? .nan)
                #expect(line[name] == expected, "\(name)")
                #expect(object[name] == expected, "\(name)")
            }
        }
    }
}
