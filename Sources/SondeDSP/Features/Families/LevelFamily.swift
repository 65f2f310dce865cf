import Foundation
import SondeCore

/// `level_a`, `level_c`: A- and C-weighted levels (IEC 61672-1) in dB re `--reference`.
final class LevelFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "level",
        summary: "frequency-weighted sound levels",
        columns: [
            FeatureDeclaration(
                .name("level_a"), unit: "dB re R",
                definition: "10·log10(max(Σ_{k>=1} P[k]·WA(f[k])·df, 1e-30) / R²), IEC 61672-1 A weighting",
                reference: "numpy (IEC 61672-1's RA(f))", input: .spectrum, request: .byName, tolerance: .level),
            FeatureDeclaration(
                .name("level_c"), unit: "dB re R", definition: "the same with the C weighting WC",
                reference: "numpy (IEC 61672-1's RC(f))", input: .spectrum, request: .byName, tolerance: .level),
        ],
        options: [
            .init(
                flag: "--reference", valueName: "R",
                help: "0 dB of level_a, level_c and the octave bands, > 0 (default 1; 2e-5 for Pa gives dB SPL).")
        ]
    )

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        ["level_a", "level_c"].filter(configuration.families.names.contains)
    }

    /// WA(f[k])·df and WC(f[k])·df per bin, from bin 1; only those asked for.
    private let curves: [[Double]]
    private let referenceSquared: Double

    init(configuration: FeatureConfiguration) {
        let fs = configuration.sampleRate, n = Double(configuration.frameLength)
        let df = fs / n
        let frequencies = (1..<(configuration.frameLength / 2 + 1)).map { Double($0) * fs / n }
        curves = Self.columnNames(for: configuration).map { name in
            frequencies.map { f in (name == "level_a" ? Self.aWeight(f) : Self.cWeight(f)) * df }
        }
        referenceSquared = configuration.families.reference * configuration.families.reference
    }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        let p = frame.power + 1
        for column in curves.indices {
            let sum = curves[column].withUnsafeBufferPointer { w in
                w.baseAddress.map { FrameKernels.dot(p, $0, count: w.count) } ?? 0
            }
            values[column] = 10 * log10(Swift.max(sum, 1e-30) / referenceSquared)
        }
    }

    /// IEC 61672-1 A weighting as a power ratio: (RA(f)·10^(2/20))².
    static func aWeight(_ f: Double) -> Double {
        let f2 = f * f
        let r =
            12194.0 * 12194.0 * f2 * f2
            / ((f2 + 20.6 * 20.6) * ((f2 + 107.7 * 107.7) * (f2 + 737.9 * 737.9)).squareRoot()
                * (f2 + 12194.0 * 12194.0))
        let a = r * pow(10, 2.0 / 20)
        return a * a
    }

    /// IEC 61672-1 C weighting as a power ratio: (RC(f)·10^(0.06/20))².
    static func cWeight(_ f: Double) -> Double {
        let f2 = f * f
        let r = 12194.0 * 12194.0 * f2 / ((f2 + 20.6 * 20.6) * (f2 + 12194.0 * 12194.0))
        let c = r * pow(10, 0.06 / 20)
        return c * c
    }
}
