import Foundation
import SondeCore
import SondeDSP
import SondeIO
import SondeKit
import Testing
import _SondeTestSupport

/// `BearingDiagnosisRun`, the diagnose use-case, in process: a file of an outer-race fault, a
/// healthy bearing and a tachometer at 1797 rpm gives the same verdicts with the speed given
/// and with it read off the tachometer, which is not diagnosed.
@Suite struct BearingDiagnosisRunTests {
    static let shaftHz = 1797.0 / 60

    /// Three interleaved f64 channels at 25.6 kHz, 4 s.
    static func record() throws -> URL {
        var faulty = SyntheticBearingSignal()
        faulty.shaftHz = shaftHz
        var healthy = faulty
        healthy.fault = .healthy
        healthy.seed = 7
        let a = faulty.samples(), b = healthy.samples()
        var bytes = Data(capacity: 24 * a.count)
        for n in 0..<a.count {
            let cycle = (Double(n) / faulty.sampleRate * shaftHz + 0.3).truncatingRemainder(dividingBy: 1)
            for value in [a[n], b[n], cycle < 0.1 ? 5.0 : 0.0] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        let url = try TestScratch.folder("sonde-kit-diagnose").appendingPathComponent("rig.f64")
        try bytes.write(to: url)
        return url
    }

    static func run(_ file: URL, _ shaft: BearingDiagnosisRun.Shaft) throws -> BearingDiagnosisRun {
        BearingDiagnosisRun(
            file: file.path, source: SampleSourceOptions(sampleRate: 25_600, channels: 3, sampleType: .f64le),
            shaft: shaft, bearing: try DefectMultiples(parsing: "6205"), levels: 6, threshold: 10,
            metresPerSecondSquared: 1)
    }

    @Test func tachometerAndGivenSpeedAgree() async throws {
        let file = try Self.record()
        let fromTacho = try await Self.run(file, .tachometer(channel: "2", pulsesPerRevolution: 1)).reports()
        #expect(fromTacho.map(\.channel) == ["ch0", "ch1"], "the tachometer is not diagnosed")
        #expect(fromTacho.first?.diagnosis.verdict == .fault(.outerRace))
        #expect(fromTacho.last?.diagnosis.verdict == BearingDiagnosis.Verdict.none)
        let measured = try #require(fromTacho.first?.diagnosis.shaft.hertz)
        #expect(abs(measured - Self.shaftHz) / Self.shaftHz < 1e-4, "\(measured) Hz")

        let given = try await Self.run(file, .given(ShaftSpeed(hertz: Self.shaftHz))).reports()
        #expect(given.count == 3)
        #expect(given.prefix(2).map(\.diagnosis.verdict) == fromTacho.map(\.diagnosis.verdict))
        #expect(given.allSatisfy { $0.velocity != nil })
    }

    @Test func aMissingFileIsNamed() async throws {
        let missing = try TestScratch.folder("sonde-kit-diagnose").appendingPathComponent("absent.f64")
        await #expect {
            _ = try await Self.run(missing, .given(ShaftSpeed(hertz: 30))).reports()
        } throws: { error in
            "\(error)".contains("absent.f64")
        }
    }
}
