import Foundation
import Testing
import _SondeTestSupport

/// One case of `Tests/Fixtures/families_cases.json`: an input and `sonde process` options
/// asking for section-7 families, with the records `reference_families.py`
/// (numpy/scipy/librosa) computed for them.
struct FamilyCase: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var inputs: [String]
    var args: [String]
    var expected: String
    var fs: Double
    var window: Int
    var velocityLow: Double

    enum CodingKeys: String, CodingKey {
        case name, inputs, args, expected, fs, window
        case velocityLow = "velocity_low"
    }

    var testDescription: String { name }

    static func all() throws -> [FamilyCase] {
        try JSONDecoder().decode([FamilyCase].self, from: Fixtures.data("families_cases.json"))
    }
}

@Suite struct FamilyReferenceTests {
    /// Every section-7 column agrees with the reference within FEATURES.md's tolerances,
    /// with the same columns in the same order.
    @Test(arguments: try FamilyCase.all())
    func processMatchesReference(_ testCase: FamilyCase) throws {
        let result = try SondeBinary.run(["process"] + testCase.inputs + testCase.args + ["--format", "csv"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let got = RecordTable(csv: result.stdout)
        let want = RecordTable(csv: try String(contentsOf: Fixtures.url(testCase.expected), encoding: .utf8))
        #expect(got.columns == want.columns)
        #expect(got.rows.count == want.rows.count)
        var reported = 0
        for (index, (gotRow, wantRow)) in zip(got.rows, want.rows).enumerated() {
            let problems = FeatureTolerance.mismatches(
                columns: want.columns, got: gotRow, want: wantRow, sampleRate: testCase.fs, frameLength: testCase.window,
                velocityLow: testCase.velocityLow)
            if !problems.isEmpty, reported < 5 {
                reported += 1
                Issue.record("record \(index) (\(wantRow.prefix(4).joined(separator: ","))): \(problems.prefix(5).joined(separator: "; "))")
            }
        }
    }
}
