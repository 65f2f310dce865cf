import Foundation
import Testing
import _SondeTestSupport

/// One case of `Tests/Fixtures/families_cases.json`: an input and `sonde process` options
/// asking for the families of docs/features.md section 7, with the records `reference_families.py`
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
    /// Every column of docs/features.md section 7 agrees with the reference within the
    /// tolerances of docs/features.md, "Reference checks", with the same columns in the same
    /// order.
    @Test(arguments: try FamilyCase.all())
    func processMatchesReference(_ testCase: FamilyCase) throws {
        try expectProcessMatchesReference(
            inputs: testCase.inputs, arguments: testCase.args, expected: testCase.expected
        ) {
            columns, got, want, unfilteredPeak in
            FeatureTolerance.mismatches(
                columns: columns, got: got, want: want, sampleRate: testCase.fs, frameLength: testCase.window,
                velocityLow: testCase.velocityLow, unfilteredPeak: unfilteredPeak)
        }
    }
}
