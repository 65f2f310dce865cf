import Foundation
import Testing
import _SondeTestSupport

/// `sonde process --features bpfo_db,... --shaft-speed --bearing` (docs/features.md section 7):
/// the outer-race channel of `DiagnoseCommandTests.record()` stands out frame by frame, the
/// records are the same bytes for `--jobs 1` and `2`, and a column no frame could measure,
/// or one without a shaft speed, is refused before the run.
@Suite struct DiagnoseColumnsCommandTests {
    static func process(_ extra: [String], file: URL) throws -> SondeBinary.Result {
        try SondeBinary.run(
            ["process", file.path, "--window", "16384", "--format", "csv"] + DiagnoseCommandTests.rawInput + extra)
    }

    static let bearing = ["--shaft-speed", "1797rpm", "--bearing", "6205"]

    @Test func outerRaceStandsOutAndJobsGiveTheSameBytes() throws {
        let file = try DiagnoseCommandTests.record()
        let features = ["--features", "bpfo_db,bpfi_db,rms", "--filter", "bandpass:2000-4000"]
        let one = try Self.process(features + Self.bearing + ["--jobs", "1"], file: file)
        #expect(one.status == 0, "\(one.stderr)")
        let two = try Self.process(features + Self.bearing + ["--jobs", "2"], file: file)
        #expect(two.status == 0, "\(two.stderr)")
        #expect(one.stdout == two.stdout)
        let lines = one.stdout.split(separator: "\n")
        try #require(lines.first == "time,channel,frame,start,rms,bpfo_db,bpfi_db", "\(one.stdout.prefix(200))")
        var outer: [Double] = []
        var healthy: [Double] = []
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            try #require(cells.count == 7, "\(line)")
            let bpfo = try #require(Double(cells[5]), "\(line)")
            if cells[1] == "ch0" { outer.append(bpfo) } else { healthy.append(bpfo) }
        }
        try #require(!outer.isEmpty && outer.count == healthy.count)
        // The seeded BPFO line is well over the background in every frame, the healthy
        // channel's nowhere near it.
        #expect(outer.allSatisfy { $0 >= 10 }, "\(outer)")
        #expect(outer.min() ?? 0 > (healthy.max() ?? 0), "outer \(outer) healthy \(healthy)")
    }

    @Test func notMeasurableAndMissingSpeedAreRefused() throws {
        let file = try DiagnoseCommandTests.record()
        let cage = try Self.process(["--features", "ftf_db"] + Self.bearing, file: file)
        #expect(cage.status != 0)
        #expect(cage.stdout.isEmpty)
        #expect(cage.stderr.contains("ftf_db: not measurable in a frame of 16384 samples"), "\(cage.stderr)")
        #expect(cage.stderr.contains("--window 131072 or longer measures it"), "\(cage.stderr)")
        let missing = try Self.process(["--features", "bpfo_db", "--bearing", "6205"], file: file)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("needs --shaft-speed"), "\(missing.stderr)")
        let bad = try Self.process(["--features", "bpfo_db", "--shaft-speed", "1797", "--bearing", "6205"], file: file)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--shaft-speed: shaft speed '1797'"), "\(bad.stderr)")
    }
}
