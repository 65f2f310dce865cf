import Foundation
import Testing
import _SondeTestSupport

/// Runs `sonde process` with a reference case's inputs and options and checks its CSV
/// against the committed reference records, record by record: same columns and row count,
/// and every value within the tolerance `mismatches` applies (it returns one message per
/// value outside it). Reports at most five records, so a broken feature stays readable.
/// - Returns: the run's result, for checks of its own (notes on stderr).
@discardableResult
func expectProcessMatchesReference(
    inputs: [String], arguments: [String], expected: String,
    mismatches: (_ columns: [String], _ got: [String], _ want: [String]) -> [String]
) throws -> SondeBinary.Result {
    let result = try SondeBinary.run(["process"] + inputs + arguments + ["--format", "csv"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    let got = RecordTable(csv: result.stdout)
    let want = RecordTable(csv: try String(contentsOf: Fixtures.url(expected), encoding: .utf8))
    #expect(got.columns == want.columns)
    #expect(got.rows.count == want.rows.count)
    var reported = 0
    for (index, (gotRow, wantRow)) in zip(got.rows, want.rows).enumerated() {
        let problems = mismatches(want.columns, gotRow, wantRow)
        if !problems.isEmpty, reported < 5 {
            reported += 1
            Issue.record(
                "record \(index) (\(wantRow.prefix(5).joined(separator: ","))): \(problems.prefix(5).joined(separator: "; "))"
            )
        }
    }
    return result
}
