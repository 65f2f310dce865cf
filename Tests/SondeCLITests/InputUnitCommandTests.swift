import Foundation
import Testing
import _SondeTestSupport

/// `sonde process --input-unit g|m/s2 [--velocity-unit mm/s]` (issue 47, item 5): velocity_rms
/// of g samples is 9.80665 times that of the same numbers taken as m/s², within the contract's
/// tolerance (docs/features.md section 7), mm/s is 1000 times m/s, and the options are refused
/// where they would change nothing.
@Suite struct InputUnitCommandTests {
    static let input = [
        "families/inputs/am_8k_highpass.f32le", "--rate", "8000", "--channels", "2", "--sample-type", "f32le",
        "--window", "256", "--features", "rms,velocity_rms",
    ]

    static func velocities(_ options: [String]) throws -> (values: [Double], rms: [Double]) {
        let run = try SondeBinary.run(["process"] + Self.input + options)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let table = RecordTable(csv: run.stdout)
        let velocity = try #require(table.columns.firstIndex(of: "velocity_rms"))
        let rms = try #require(table.columns.firstIndex(of: "rms"))
        return (
            table.rows.compactMap { Double($0[velocity]) }, table.rows.compactMap { Double($0[rms]) }
        )
    }

    @Test func gIsStandardGravityTimesMetresPerSecondSquared() throws {
        let plain = try Self.velocities([])
        let metres = try Self.velocities(["--input-unit", "m/s2"])
        let g = try Self.velocities(["--input-unit", "g"])
        let millimetres = try Self.velocities(["--input-unit", "g", "--velocity-unit", "mm/s"])
        try #require(plain.values.count > 10 && g.values.count == plain.values.count)
        #expect(metres.values == plain.values)
        // Only the velocity depends on the unit.
        #expect(g.rms == plain.rms)
        #expect(g.values.contains { $0 > 0 })
        for (index, reference) in metres.values.enumerated() {
            // The contract's velocity_rms tolerance on the scaled reference: 1e-4·|ref| + 1e-9·A/(2π·LO),
            // A the scaled frame's peak, at most sqrt(2)·rms·crest; the samples are below 10 here.
            let expected = 9.806_65 * reference
            let floor = 1e-9 * 9.806_65 * 10 / (2 * Double.pi * 10)
            #expect(abs(g.values[index] - expected) <= 1e-4 * abs(expected) + floor, "frame \(index)")
            #expect(
                abs(millimetres.values[index] - 1000 * expected) <= 1e-4 * 1000 * abs(expected) + 1000 * floor,
                "frame \(index)")
        }
    }

    @Test func uselessOptionsAreRefused() throws {
        let alone = [
            "families/inputs/am_8k_highpass.f32le", "--rate", "8000", "--channels", "2", "--sample-type", "f32le",
        ]
        let refused = try SondeBinary.run(["process"] + alone + ["--input-unit", "g"])
        #expect(
            refused.status == 1 && refused.stdout.isEmpty
                && refused.stderr.contains("--input-unit g scales velocity_rms only"),
            "\(refused.stderr)")
        let unit = try SondeBinary.run(["process"] + alone + ["--velocity-unit", "mm/s"])
        #expect(
            unit.status == 1 && unit.stdout.isEmpty && unit.stderr.contains("--velocity-unit mm/s"), "\(unit.stderr)")
        let bad = try SondeBinary.run(["process"] + Self.input + ["--input-unit", "G-force"])
        #expect(bad.status == 64 && bad.stderr.contains("--input-unit"), "\(bad.stderr)")
        let help = try SondeBinary.run(["process", "--help"]).stdout
        #expect(help.contains("--input-unit") && help.contains("mm/s"))
    }
}
