import Foundation
import SondeCore

/// `envelope_rms`, `envelope_frequency`: the Hilbert envelope of the unwindowed frame
/// (`|scipy.signal.hilbert(x)|`) and its spectrum's dominant frequency, the bearing-defect
/// line once `--filter bandpass:...` has kept the resonance it modulates. 0 for flat frames.
///
/// The analytic signal is x + i·H[x], H[x] from `FrameHilbert`.
final class EnvelopeFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "envelope",
        summary: "amplitude envelope (Hilbert) and its dominant frequency",
        columns: [
            FeatureDeclaration(
                .name("envelope_rms"), unit: "input unit",
                definition: "sqrt(mean(env²)), env = |hilbert(x)| of the unwindowed frame; 0 for a flat frame",
                reference: "scipy.signal.hilbert(x)", input: .spectrum, request: .byName, tolerance: .amplitude),
            FeatureDeclaration(
                .name("envelope_frequency"), unit: "Hz",
                definition: "dominant_frequency's rule on |rfft(w·(env - mean(env)))|²; 0 when env is constant",
                reference: "scipy.signal.hilbert(x), numpy", input: .spectrum, request: .byName, tolerance: .frequency),
        ],
        options: []
    )

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        ["envelope_rms", "envelope_frequency"].filter(configuration.families.names.contains)
    }

    private let length: Int
    private let sampleRate: Double
    private let writesRMS: Bool
    private let writesFrequency: Bool
    private let hilbert: FrameHilbert
    private let window: HannWindow
    private let envelope: UnsafeMutableBufferPointer<Double>

    init(configuration: FeatureConfiguration) {
        length = configuration.frameLength
        sampleRate = configuration.sampleRate
        let names = Self.columnNames(for: configuration)
        writesRMS = names.contains("envelope_rms")
        writesFrequency = names.contains("envelope_frequency")
        hilbert = FrameHilbert(length: length)
        window = HannWindow(length: length)
        envelope = .allocate(capacity: length)
        envelope.initialize(repeating: 0)
    }

    deinit { envelope.deallocate() }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        var column = 0
        guard !frame.isFlat, let env = envelope.baseAddress else {
            if writesRMS { values[0] = 0 }
            if writesFrequency { values[writesRMS ? 1 : 0] = 0 }
            return
        }
        let n = length, x = frame.samples, spectrum = hilbert.complex.base
        let buffer = hilbert.unscaledTransform(of: x)
        // env = sqrt(x² + (H[x])²), four lanes at a time (N >= 16 is a multiple of 4): the
        // scalar loop's dependent sums were the family's largest cost (perf).
        typealias Lanes = FrameKernels.Lanes
        let scale = Lanes(repeating: 1 / Double(n))
        var sumSquares = Lanes(repeating: 0), sum = Lanes(repeating: 0)
        var low = Lanes(repeating: .infinity), high = Lanes(repeating: -.infinity)
        for i in stride(from: 0, to: n, by: 4) {
            let q = FrameKernels.load(buffer, i) * scale
            let v = FrameKernels.load(x, i)
            let e2 = FrameKernels.multiplyAdd(v, v, q * q)
            let e = e2.squareRoot()
            FrameKernels.store(e, env, i)
            sumSquares += e2
            sum += e
            low = pointwiseMin(low, e)
            high = pointwiseMax(high, e)
        }
        if writesRMS {
            values[column] = (sumSquares.sum() / Double(n)).squareRoot()
            column += 1
        }
        guard writesFrequency else { return }
        guard high.max() > low.min() else {
            values[column] = 0
            return
        }
        let mean = sum.sum() / Double(n)
        window.coefficients.withUnsafeBufferPointer { w in
            for i in 0..<n { buffer[i] = w[i] * (env[i] - mean) }
        }
        hilbert.forward.execute(input: buffer, output: spectrum)
        values[column] = dominantFrequency(spectrum) * sampleRate / Double(n)
    }

    /// `dominant_frequency`'s rule in bins: argmax from k = 2 (lowest on ties), then the
    /// parabola through ln Pe around it (floored at 1e-300), clamped to ±0.5 bin.
    private func dominantFrequency(_ spectrum: UnsafePointer<Double>) -> Double {
        let nyquist = length / 2
        func power(_ k: Int) -> Double { spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1] }
        var peak = 2
        var best = power(2)
        for k in 3...nyquist {
            let p = power(k)
            if p > best {
                best = p
                peak = k
            }
        }
        guard peak < nyquist else { return Double(peak) }
        let a = log(Swift.max(power(peak - 1), 1e-300)), b = log(Swift.max(best, 1e-300)),
            c = log(Swift.max(power(peak + 1), 1e-300))
        let denominator = a - 2 * b + c
        let offset = denominator == 0 ? 0 : Swift.min(Swift.max(0.5 * (a - c) / denominator, -0.5), 0.5)
        return Double(peak) + offset
    }
}
