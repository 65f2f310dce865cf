import Foundation
import SondeCore
import SondeIO
import SondeKit
import Testing
import _SondeTestSupport

/// `KurtogramRun`, `sonde kurtogram`'s work, in process on the synthetic bearing signals the
/// numpy reference wrote (Tests/Fixtures/kurtogram): the best cell is the reference's, the
/// envelope's strongest line is the seeded defect within 2%, a recording shorter than the
/// deepest level needs says how long it must be; and `KurtogramText`'s two forms.
@Suite struct KurtogramRunTests {
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

    static func run(_ name: String, rate: Double, levels: Int) -> KurtogramRun {
        KurtogramRun(
            file: Fixtures.url("kurtogram/\(name).f64").path,
            source: SampleSourceOptions(sampleRate: rate, sampleType: .f64le), levels: levels)
    }

    @Test func bestBandAndEnvelopeLineOfEachSignal() throws {
        let reference = try JSONDecoder().decode(Reference.self, from: Fixtures.data("kurtogram/reference.json"))
        #expect(reference.signals.count == 5)
        for signal in reference.signals {
            let channels = try Self.run(signal.name, rate: reference.sample_rate, levels: reference.nlevel).channels()
            let channel = try #require(channels.first)
            #expect(channels.count == 1)
            let best = channel.kurtogram.best
            #expect(best.row == signal.best.row && best.band == signal.best.band, "\(signal.name)")
            if let defect = signal.defect_hz {
                let line = try #require(channel.line?.frequency)
                #expect(abs(line - defect) <= 0.02 * defect, "\(signal.name): line \(line) Hz, defect \(defect) Hz")
            }
            // The table's line and the JSON's object say the same best cell.
            let table = KurtogramText.table(channels)
            #expect(table.first == "channel,level,centre_hz,bandwidth_hz,kurtosis,envelope_line_hz")
            #expect(table.count == 2)
            #expect(table[1].hasPrefix("\(channel.name),\(best.level.compactDescription),"))
            let json = KurtogramText.json(channels).text
            #expect(json.contains(#""best":{"#) && json.contains(#""row":\#(best.row)"#), "\(json.prefix(200))")
            #expect(json.contains(#""grid":["#))
        }
    }

    @Test func tooShortForTheLevelsSaysHowLong() throws {
        #expect {
            _ = try Self.run("healthy", rate: 25_600, levels: 12).channels()
        } throws: { error in
            let text = "\(error)"
            return (error as? SondeError)?.code == .invalidInput && text.contains("too short")
                && text.contains("524288") && text.contains("healthy.f64, channel ")
        }
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: SondeError.self) { _ = try Self.run("no-such", rate: 25_600, levels: 4).channels() }
    }
}
