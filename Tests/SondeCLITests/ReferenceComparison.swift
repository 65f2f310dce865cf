import Foundation
import Testing
import _SondeTestSupport

/// Runs `sonde process` with a reference case's inputs and options and checks its CSV
/// against the committed reference records, record by record: same columns and row count,
/// and every value within the tolerance `mismatches` applies (it returns one message per
/// value outside it). Reports at most five records, so a broken feature stays readable.
/// With `--filter`, `mismatches` also gets each record's unfiltered peak (docs/features.md,
/// "Reference checks": `A` is the larger of the filtered and the unfiltered frame's peak).
/// - Returns: the run's result, for checks of its own (notes on stderr).
@discardableResult
func expectProcessMatchesReference(
    inputs: [String], arguments: [String], expected: String,
    mismatches: (_ columns: [String], _ got: [String], _ want: [String], _ unfilteredPeak: Double) -> [String]
) throws -> SondeBinary.Result {
    let result = try SondeBinary.run(["process"] + inputs + arguments + ["--format", "csv"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    let got = RecordTable(csv: result.stdout)
    let want = RecordTable(csv: try String(contentsOf: Fixtures.url(expected), encoding: .utf8))
    #expect(got.columns == want.columns)
    #expect(got.rows.count == want.rows.count)
    let peaks = try unfilteredPeaks(inputs: inputs, arguments: arguments)
    #expect(peaks.isEmpty || peaks.count == want.rows.count, "unfiltered run: \(peaks.count) records")
    var reported = 0
    for (index, (gotRow, wantRow)) in zip(got.rows, want.rows).enumerated() {
        let problems = mismatches(want.columns, gotRow, wantRow, index < peaks.count ? peaks[index] : 0)
        if !problems.isEmpty, reported < 5 {
            reported += 1
            Issue.record(
                "record \(index) (\(wantRow.prefix(5).joined(separator: ","))): \(problems.prefix(5).joined(separator: "; "))"
            )
        }
    }
    return result
}

/// Each record's `peak` from the same run without its filters (and without the options of
/// other features), or none when the run has no `--filter`. `peak` is a maximum of |x|: no
/// rounding, so sonde's own value is the reference's.
private func unfilteredPeaks(inputs: [String], arguments: [String]) throws -> [Double] {
    guard arguments.contains("--filter") else { return [] }
    let dropped: Set<String> = ["--filter", "--features", "--bands", "--velocity-band"]
    var kept: [String] = []
    var index = 0
    while index < arguments.count {
        if dropped.contains(arguments[index]) {
            index += 2
        } else {
            kept.append(arguments[index])
            index += 1
        }
    }
    let result = try SondeBinary.run(["process"] + inputs + kept + ["--features", "peak", "--format", "csv"])
    #expect(result.status == 0, "unfiltered run: \(result.stderr)")
    let table = RecordTable(csv: result.stdout)
    guard let column = table.columns.firstIndex(of: "peak") else { return [] }
    return table.rows.map { Double($0[column]) ?? 0 }
}
