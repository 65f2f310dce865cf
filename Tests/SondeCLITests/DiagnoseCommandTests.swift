import Foundation
import Testing
import _SondeTestSupport

/// `sonde diagnose` on a synthetic two-channel bearing record the test writes (an outer-race
/// fault beside a healthy bearing, a 6205-2RS at 1797 rpm): the verdicts, the JSON, and the
/// errors for a missing shaft speed and a recording too short for the kurtogram.
@Suite struct DiagnoseCommandTests {
    /// An outer-race fault on channel 1 and a healthy bearing on channel 2, at SNR -5 dB,
    /// interleaved little-endian f64 at 25.6 kHz.
    static func record() throws -> URL {
        var fault = SyntheticBearingSignal()
        fault.shaftHz = 1797.0 / 60
        fault.defectHz = 3.5848 * fault.shaftHz
        fault.snrDecibels = -5
        fault.seed = 21
        var healthy = fault
        healthy.fault = .healthy
        healthy.seed = 22
        let a = fault.samples()
        let b = healthy.samples()
        var bytes = Data(capacity: 16 * a.count)
        for (x, y) in zip(a, b) {
            for value in [x, y] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        let url = try TestScratch.folder("sonde-diagnose").appendingPathComponent("bearing.f64")
        try bytes.write(to: url)
        return url
    }

    static let rawInput = ["--rate", "25600", "--channels", "2", "--sample-type", "f64le"]

    @Test func namesTheFaultAndNoneOnTheHealthyChannel() throws {
        let file = try Self.record()
        let run = try SondeBinary.run(
            ["diagnose", file.path, "--shaft-speed", "1797rpm", "--bearing", "6205"] + Self.rawInput)
        #expect(run.status == 0, "\(run.stderr)")
        let paragraphs = run.stdout.components(separatedBy: "\n\n")
        try #require(paragraphs.count == 2, "\(run.stdout)")
        #expect(paragraphs[0].contains(": outer race fault likely (BPFO"), "\(paragraphs[0])")
        #expect(paragraphs[0].contains("BPFO 107.36 Hz"), "\(paragraphs[0])")
        #expect(paragraphs[0].contains("ISO 20816-3 zone"), "\(paragraphs[0])")
        #expect(paragraphs[1].contains(": no bearing defect above 10 dB"), "\(paragraphs[1])")

        let json = try SondeBinary.run(
            [
                "diagnose", file.path, "--shaft-speed", "29.95hz", "--bearing", "n=9,d=0.3126in,D=1.537in,angle=0",
                "--format", "json", "--machine-group", "1", "--foundation", "flexible",
            ] + Self.rawInput)
        #expect(json.status == 0, "\(json.stderr)")
        let channels = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        try #require(channels.count == 2)
        #expect(channels[0]["verdict"] as? String == "bpfo")
        #expect(channels[1]["verdict"] as? String == "none")
        #expect(channels[0]["iso20816_zone"] as? String != nil)
        let band = try #require(channels[0]["band"] as? [String: Any])
        let low = try #require(band["low_hz"] as? Double)
        let high = try #require(band["high_hz"] as? Double)
        #expect(low <= 3000 && 3000 <= high, "band \(low)-\(high) Hz misses the 3 kHz resonance")
    }

    @Test func missingShaftSpeedAndTooShortARecordAreClearErrors() throws {
        let file = try Self.record()
        let missing = try SondeBinary.run(["diagnose", file.path, "--bearing", "6205"] + Self.rawInput)
        #expect(missing.status == 64 && missing.stderr.contains("--shaft-speed is required"), "\(missing.stderr)")
        let bad = try SondeBinary.run(
            ["diagnose", file.path, "--bearing", "6205", "--shaft-speed", "1797"] + Self.rawInput)
        #expect(bad.status == 64 && bad.stderr.contains("followed by rpm or hz"), "\(bad.stderr)")
        let short = try SondeBinary.run(
            ["diagnose", file.path, "--bearing", "6205", "--shaft-speed", "1797rpm", "--levels", "12"] + Self.rawInput)
        #expect(short.status == 1 && short.stderr.contains("too short for 12 levels"), "\(short.stderr)")
    }
}
