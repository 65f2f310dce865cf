import Foundation
import Testing
import _SondeTestSupport

/// `sonde diagnose --tacho CH --pulses-per-rev N`: the shaft speed from a synthetic
/// tachometer channel beside the bearing channels of `DiagnoseCommandTests.record()`; that
/// channel is not diagnosed.
@Suite struct DiagnoseTachometerCommandTests {
    /// Outer-race fault, healthy bearing and a tachometer of `pulses` 5 V pulses per
    /// revolution at 1797 rpm, interleaved f64 at 25.6 kHz.
    static func record(pulses: Int) throws -> URL {
        let bearing = try Data(contentsOf: DiagnoseCommandTests.record())
        let count = bearing.count / 16
        let shaft = 1797.0 / 60
        var bytes = Data(capacity: 24 * count)
        for n in 0..<count {
            bytes.append(bearing[(16 * n)..<(16 * n + 16)])
            let cycle = (Double(n) / 25600 * shaft * Double(pulses) + 0.3).truncatingRemainder(dividingBy: 1)
            let tacho = (cycle < 0.1 ? 5.0 : 0.0) + 0.02 * sin(Double(n))
            withUnsafeBytes(of: tacho.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        let url = try TestScratch.folder("sonde-diagnose-tacho").appendingPathComponent("tacho\(pulses).f64")
        try bytes.write(to: url)
        return url
    }

    static let rawInput = ["--rate", "25600", "--channels", "3", "--sample-type", "f64le", "--bearing", "6205"]

    @Test(arguments: [(1, "2"), (3, "ch2")])
    func speedFromTheTachometer(_ pulses: Int, _ channel: String) throws {
        let file = try Self.record(pulses: pulses)
        var arguments = ["diagnose", file.path, "--tacho", channel] + Self.rawInput
        if pulses != 1 { arguments += ["--pulses-per-rev", "\(pulses)"] }
        let run = try SondeBinary.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let paragraphs = run.stdout.components(separatedBy: "\n\n")
        try #require(paragraphs.count == 2, "the tachometer is not diagnosed: \(run.stdout)")
        #expect(paragraphs[0].hasPrefix("ch0: outer race fault likely (BPFO"), "\(paragraphs[0])")
        #expect(paragraphs[1].hasPrefix("ch1: no bearing defect above 10 dB"), "\(paragraphs[1])")
        // "shaft 1797 rpm (29.95 Hz)" to six digits: the edges are interpolated.
        let line = try #require(paragraphs[0].split(separator: "\n").first { $0.contains("  shaft ") })
        let rpm = try #require(Double(line.split(separator: " ")[1]))
        #expect(abs(rpm - 1797) <= 0.05, "\(line)")
    }

    @Test func refusals() throws {
        let file = try Self.record(pulses: 1)
        let both = try SondeBinary.run(
            ["diagnose", file.path, "--tacho", "2", "--shaft-speed", "1797rpm"] + Self.rawInput)
        #expect(both.status == 64 && both.stderr.contains("--shaft-speed or --tacho 2"), "\(both.stderr)")
        let missing = try SondeBinary.run(["diagnose", file.path, "--tacho", "5"] + Self.rawInput)
        #expect(missing.status == 1 && missing.stderr.contains("--tacho 5: no such channel"), "\(missing.stderr)")
        let zero = try SondeBinary.run(
            ["diagnose", file.path, "--tacho", "2", "--pulses-per-rev", "0"] + Self.rawInput)
        #expect(zero.status == 64 && zero.stderr.contains("--pulses-per-rev 0"), "\(zero.stderr)")
    }
}
