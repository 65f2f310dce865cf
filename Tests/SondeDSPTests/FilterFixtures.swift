import Foundation
import Testing
import _SondeTestSupport

/// The golden vectors written by `Tests/Fixtures/filters/generate_filters.py` (scipy).
struct FilterGoldenFile: Decodable, Sendable {
    /// One stage: scipy's `sos` for `spec` at `sampleRate`, and `sosfilt(sos, input)`.
    struct Stage: Decodable, Sendable, CustomTestStringConvertible {
        let spec: String
        let sampleRate: Double
        let sos: [[Double]]
        let output: [Double]
        var testDescription: String { "\(spec) @ \(FilterFixtures.hertz(sampleRate)) Hz" }
    }

    /// Several stages applied one after the other with `sosfilt`.
    struct Chain: Decodable, Sendable, CustomTestStringConvertible {
        let specs: [String]
        let sampleRate: Double
        let output: [Double]
        var testDescription: String { "\(specs.joined(separator: ", ")) @ \(FilterFixtures.hertz(sampleRate)) Hz" }
    }

    let scipy: String
    let input: [Double]
    let cases: [Stage]
    let chains: [Chain]
    /// Bands centred on fs/4, whose scipy section order is machine dependent: output only.
    let orderAmbiguous: [Stage]
}

enum FilterFixtures {
    /// Loaded once; a failure is reported by `goldenFileLoads` rather than crashing discovery.
    static let golden: Result<FilterGoldenFile, LoadError> = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // SondeDSPTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Tests/Fixtures/filters/filters.json")
        do {
            let data = try Data(contentsOf: url)
            return .success(try JSONDecoder().decode(FilterGoldenFile.self, from: data))
        } catch {
            return .failure(LoadError(description: "\(url.path): \(error)"))
        }
    }()

    struct LoadError: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    static var input: [Double] { (try? golden.get())?.input ?? [] }
    static var cases: [FilterGoldenFile.Stage] { (try? golden.get())?.cases ?? [] }
    static var chains: [FilterGoldenFile.Chain] { (try? golden.get())?.chains ?? [] }
    static var orderAmbiguous: [FilterGoldenFile.Stage] { (try? golden.get())?.orderAmbiguous ?? [] }

    static func hertz(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// The largest |a[i] - b[i]| divided by the largest |b[i]|: the error relative to the
/// signal's scale, which is what matters for a filtered waveform (samples near zero crossings
/// have no meaningful relative error of their own).
func maximumDeviationRelativeToPeak(_ a: [Double], _ b: [Double]) -> Double {
    precondition(a.count == b.count)
    let peak = b.reduce(0) { max($0, abs($1)) }
    let deviation = zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    return peak == 0 ? deviation : deviation / peak
}
