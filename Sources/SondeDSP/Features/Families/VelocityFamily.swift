import Foundation
import SondeCore

/// `velocity_rms`: the RMS vibration velocity from an acceleration spectrum, P[k] divided
/// by (2πf)² over `--velocity-band` (ISO 20816-1's 10-1000 Hz by default), in m/s for an
/// `--input-unit` (mm/s with `--velocity-unit mm/s`).
final class VelocityFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "velocity",
        summary: "vibration severity from acceleration",
        columns: [
            FeatureDeclaration(
                .name("velocity_rms"),
                unit: "input unit · s (m/s² in, m/s out); m/s with --input-unit, mm/s with --velocity-unit mm/s",
                definition: "sqrt(Σ P[k] / (2π f[k])² · df) over LO <= f[k] < HI",
                reference: "scipy.signal.periodogram(x, fs, window='hann', scaling='density')", input: .spectrum,
                request: .byName,
                tolerance: .velocity)
        ],
        options: [
            .init(
                flag: "--velocity-band", valueName: "LO-HI",
                help: "velocity_rms band in Hz, 0 < LO < HI (default 10-1000, ISO 20816-1; 2-1000 for slow machines)."),
            .init(
                flag: "--input-unit", valueName: "UNIT",
                help:
                    "Unit of the acceleration samples for velocity_rms: g (scaled by 9.80665) or m/s2; velocity_rms is then in m/s."
            ),
            .init(
                flag: "--velocity-unit", valueName: "UNIT",
                help: "velocity_rms in m/s (default) or mm/s (ISO 20816's unit); samples in m/s2 unless --input-unit g."
            ),
        ]
    )

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        configuration.families.names.contains("velocity_rms") ? ["velocity_rms"] : []
    }

    private let bins: Range<Int>
    /// df / (2π f[k])² for the bins in `bins`.
    private let weights: [Double]

    init(configuration: FeatureConfiguration) {
        let fs = configuration.sampleRate, n = Double(configuration.frameLength)
        let band = configuration.families.velocityBand
        let inBand = (0..<(configuration.frameLength / 2 + 1)).filter { k in
            let f = Double(k) * fs / n
            return band.low <= f && f < band.high
        }
        bins = (inBand.first ?? 0)..<((inBand.last ?? -1) + 1)
        let df = fs / n
        // The unit's scale on the samples is its square on the power spectrum.
        let scale = configuration.families.velocityScale
        weights = bins.map { k in
            let omega = 2 * Double.pi * (Double(k) * fs / n)
            return scale * scale * df / (omega * omega)
        }
    }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        let sum = weights.withUnsafeBufferPointer { w in
            w.baseAddress.map { FrameKernels.dot(frame.power + bins.lowerBound, $0, count: bins.count) } ?? 0
        }
        values[0] = sum.squareRoot()
    }
}
