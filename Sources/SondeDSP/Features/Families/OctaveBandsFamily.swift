import Foundation
import SondeCore

/// `octave:NOMINAL` and `third_octave:NOMINAL`: IEC 61260-1 base-10 band levels in dB re
/// `--reference`, every band that fits between df and fs/2, lowest first.
final class OctaveBandsFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "octave bands",
        summary: "IEC 61260-1 base-10 octave and third-octave band levels (--bands octave, --bands third-octave)",
        columns: [
            FeatureDeclaration(
                .pattern(prefix: "octave:", display: "octave:NOMINAL"), unit: "dB re R",
                definition:
                    "10·log10(max(Σ_{lo <= f[k] < hi} P[k]·df, 1e-30) / R²), centre 1000·10^(3x/10), edges centre·10^(∓3/20); every band from df to fs/2, named by its IEC 61260-1 nominal centre to three significant digits (octave:16000, third_octave:31.5)",
                reference: "numpy (IEC 61260-1 base 10)", input: .spectrum, request: .byOption("--bands octave"),
                tolerance: .level),
            FeatureDeclaration(
                .pattern(prefix: "third_octave:", display: "third_octave:NOMINAL"), unit: "dB re R",
                definition: "the same with centre 1000·10^(x/10), edges centre·10^(∓1/20)",
                reference: "numpy (IEC 61260-1 base 10)", input: .spectrum, request: .byOption("--bands third-octave"),
                tolerance: .level),
        ],
        options: []
    )

    static let followsBandPowers = true

    /// One band: its column name and its edges in Hz.
    struct BandEdges {
        var name: String
        var low: Double
        var high: Double
    }

    /// The bands of `set` that fit `df <= lo`, `hi <= fs/2`, lowest first.
    static func bands(_ set: OctaveBandSet, sampleRate fs: Double, frameLength: Int) -> [BandEdges] {
        let df = fs / Double(frameLength)
        let steps = set == .octave ? 3 : 1
        let halfWidth = pow(10, Double(steps) / 20)
        // |x| <= 200 reaches 10^±60 Hz for thirds, far past any rate.
        return (-200...200).compactMap { x in
            let centre = 1000 * pow(10, Double(steps * x) / 10)
            let low = centre / halfWidth, high = centre * halfWidth
            guard low >= df, high <= fs / 2 else { return nil }
            return BandEdges(name: "\(set.columnPrefix):\(nominal(steps * x).compactDescription)", low: low, high: high)
        }
    }

    /// IEC 61260-1's nominal frequency of band index i (thirds from 1 kHz), to three significant digits.
    static func nominal(_ i: Int) -> Double {
        let mantissas = [1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8]
        let decade = i >= 0 ? i / 10 : -((-i + 9) / 10)
        let value = mantissas[i - 10 * decade] * pow(10, Double(3 + decade))
        return Double(String(format: "%.3g", value)) ?? value
    }

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        configuration.families.octaveSets.flatMap { set in
            bands(set, sampleRate: configuration.sampleRate, frameLength: configuration.frameLength).map(\.name)
        }
    }

    private let bins: [Range<Int>]
    private let df: Double
    private let referenceSquared: Double

    init(configuration: FeatureConfiguration) {
        let fs = configuration.sampleRate, n = Double(configuration.frameLength)
        let binCount = configuration.frameLength / 2 + 1
        df = fs / n
        bins = configuration.families.octaveSets.flatMap { set in
            Self.bands(set, sampleRate: fs, frameLength: configuration.frameLength).map { band in
                // lo <= f[k] < hi with f[k] = k·fs/N, as band_power computes it.
                let inBand = (0..<binCount).filter { k in
                    let f = Double(k) * fs / n
                    return band.low <= f && f < band.high
                }
                return (inBand.first ?? 0)..<((inBand.last ?? -1) + 1)
            }
        }
        referenceSquared = configuration.families.reference * configuration.families.reference
    }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        for (column, range) in bins.enumerated() {
            let power = range.isEmpty ? 0 : FrameKernels.sum(frame.power, range) * df
            values[column] = 10 * log10(Swift.max(power, 1e-30) / referenceSquared)
        }
    }
}
