import Foundation
import Testing
import _SondeTestSupport

/// `sonde kurtogram` on the synthetic bearing signals the numpy reference wrote
/// (Tests/Fixtures/kurtogram): the best cell is the reference's, the envelope's strongest
/// line is the seeded defect within 2%, and a recording shorter than the deepest level
/// needs is one line saying how long it must be.
@Suite struct KurtogramCommandTests {
    struct Reference: Decodable {
        struct Signal: Decodable {
            struct Best: Decodable {
                let row: Int
                let band: Int
            }
            let name: String
            let best: Best
            let defect_hz: Double?
        }
        let sample_rate: Double
        let nlevel: Int
        let signals: [Signal]
    }

    @Test func bestBandAndEnvelopeLineOfEachSignal() throws {
        let reference = try JSONDecoder().decode(Reference.self, from: Fixtures.data("kurtogram/reference.json"))
        #expect(reference.signals.count == 5)
        for signal in reference.signals {
            let run = try SondeBinary.run([
                "kurtogram", "kurtogram/\(signal.name).f64", "--rate", "\(reference.sample_rate)", "--sample-type",
                "f64le", "--levels", "\(reference.nlevel)", "--format", "json",
            ])
            #expect(run.status == 0, "\(signal.name): \(run.stderr)")
            let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
            let channel = try #require(parsed?.first, "\(run.stdout.prefix(200))")
            let best = try #require(channel["best"] as? [String: Any])
            #expect(
                best["row"] as? Int == signal.best.row && best["band"] as? Int == signal.best.band, "\(signal.name)")
            if let defect = signal.defect_hz {
                let line = try #require(channel["envelope_line"] as? Double)
                #expect(abs(line - defect) <= 0.02 * defect, "\(signal.name): line \(line) Hz, defect \(defect) Hz")
            }
        }
    }

    @Test func tooShortForTheLevelsSaysHowLong() throws {
        let run = try SondeBinary.run([
            "kurtogram", "kurtogram/healthy.f64", "--rate", "25600", "--sample-type", "f64le", "--levels", "12",
        ])
        #expect(run.status == 1 && run.stderr.contains("too short") && run.stderr.contains("524288"), "\(run.stderr)")
    }
}
