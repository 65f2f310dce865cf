import Foundation
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The hand-vectorised frame kernels against plain scalar evaluations of the same formulas.
@Suite("Frame kernels")
struct FrameKernelsTests {
    /// The SIMD logarithm is within 1e-15 of libm's (absolute, or relative above e), over
    /// normal, subnormal and zero inputs, in every lane position.
    @Test func logarithmAgreesWithLibm() {
        var generator = SplitMix64(seed: 3)
        var inputs: [Double] = [
            0, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude / 3, Double.leastNormalMagnitude, 1, 2, 0.5,
            2.squareRoot(), 1e-10, 1e300,
        ]
        for _ in 0..<20_000 {
            let exponent = Int.random(in: -1000...1000, using: &generator)
            inputs.append(
                Double(sign: .plus, exponent: exponent, significand: Double.random(in: 1..<2, using: &generator)))
        }
        while !inputs.count.isMultiple(of: 4) { inputs.append(3) }
        var worst = 0.0
        for start in stride(from: 0, to: inputs.count, by: 4) {
            let lanes = SIMD4(inputs[start], inputs[start + 1], inputs[start + 2], inputs[start + 3])
            let got = FrameKernels.logarithm(lanes)
            for lane in 0..<4 {
                let want = Foundation.log(lanes[lane])
                if want == -.infinity {
                    #expect(got[lane] == -.infinity)
                    continue
                }
                worst = max(worst, abs(got[lane] - want) / max(1, abs(want)))
            }
        }
        #expect(worst <= 1e-15, "worst deviation \(worst)")
    }

    /// The one-pass spectrum gives the scalar definitions: |X|², |X|, P, the shared sums
    /// (to 1e-13 relative: only the order of additions differs) and argmax P over 2...N/2,
    /// lowest bin on ties, exactly.
    @Test(arguments: [16, 64, 1024])
    func spectrumMatchesScalarDefinitions(frameLength: Int) {
        var generator = SplitMix64(seed: UInt64(frameLength))
        let bins = frameLength / 2 + 1
        for trial in 0..<200 {
            // Small integers make ties (and zero bins) common.
            var complex = (0..<(2 * bins)).map { _ in Double(Int.random(in: -3...3, using: &generator)) }
            if trial.isMultiple(of: 7) { complex = complex.map { $0 * 1e-3 } }
            let scale = 0.37
            var squared = [Double](repeating: .nan, count: bins)
            var magnitude = squared, power = squared
            let sums = complex.withUnsafeBufferPointer { c in
                FrameKernels.spectrum(
                    c.baseAddress!, bins: bins, powerScale: scale, squared: &squared, magnitude: &magnitude,
                    power: &power)
            }
            var expectedPeak = 2
            var magnitudeSum = 0.0, weighted = 0.0, squareWeighted = 0.0, energy = 0.0, q = 0.0, logQ = 0.0,
                energyLog = 0.0
            for k in 0..<bins {
                let s2 = complex[2 * k] * complex[2 * k] + complex[2 * k + 1] * complex[2 * k + 1]
                let p = s2 * (k == 0 || k == bins - 1 ? scale : 2 * scale)
                #expect(squared[k] == s2)
                #expect(magnitude[k] == s2.squareRoot())
                #expect(power[k] == p)
                if k > 2, p > power[expectedPeak] { expectedPeak = k }
                magnitudeSum += s2.squareRoot()
                weighted += Double(k) * s2.squareRoot()
                squareWeighted += Double(k * k) * s2.squareRoot()
                energy += s2
                q += max(s2, 1e-10)
                logQ += Foundation.log(max(s2, 1e-10))
                if s2 > 0 { energyLog += s2 * Foundation.log(s2) }
            }
            #expect(sums.peakBin == expectedPeak, "trial \(trial)")
            for (got, want) in [
                (sums.magnitude, magnitudeSum), (sums.weightedBins, weighted),
                (sums.squareWeightedBins, squareWeighted), (sums.energy, energy), (sums.q, q), (sums.logQ, logQ),
                (sums.energyLog, energyLog),
            ] {
                #expect(abs(got - want) <= 1e-13 * max(abs(want), 1e-300), "trial \(trial): \(got) vs \(want)")
            }
        }
    }

    /// The blocked rolloff search finds the bin a plain running sum finds: exactly when every
    /// partial sum is exact (small integers), and otherwise the same bin unless the plain
    /// scan's running sum lies within 1e-12 of the threshold there (a near-tie, where the
    /// two roundings may disagree by one bin). Thresholds fall inside blocks, on block edges, at 0,
    /// on the total, and beyond it (no bin reaches them: the last bin).
    @Test func rolloffSearchMatchesPlainScan() {
        var generator = SplitMix64(seed: 11)
        func plainScan(_ values: [Double], _ threshold: Double) -> Int {
            var running = 0.0
            for (k, value) in values.enumerated() {
                running += value
                if running >= threshold { return k }
            }
            return values.count - 1
        }
        for trial in 0..<4000 {
            let count = [1, 7, 8, 9, 16, 17, 33, 513][trial % 8]
            let integers = trial.isMultiple(of: 2)
            let values = (0..<count).map { _ in
                integers
                    ? Double(Int.random(in: 0...3, using: &generator)) : Double.random(in: 0..<1, using: &generator)
            }
            let total = values.reduce(0, +)
            let threshold: Double
            switch trial % 5 {
            case 0: threshold = 0
            case 1: threshold = total * 2 + 1
            case 2: threshold = values.prefix(Int.random(in: 0...count, using: &generator)).reduce(0, +)
            default: threshold = 0.85 * total
            }
            let got = values.withUnsafeBufferPointer {
                FrameKernels.firstBin(reaching: threshold, runningSumOf: $0.baseAddress!, count: count)
            }
            let want = plainScan(values, threshold)
            if integers {
                #expect(got == want, "trial \(trial)")
            } else if got != want {
                // Only a near-tie may differ, and then by one bin (docs/features.md accepts either).
                let running = values.prefix(min(got, want) + 1).reduce(0, +)
                #expect(abs(running - threshold) <= 1e-12 * threshold, "trial \(trial): \(got) vs \(want)")
                #expect(abs(got - want) == 1, "trial \(trial): \(got) vs \(want)")
            }
        }
    }

    /// Range sums of any length and alignment equal the scalar sum to 1e-15 relative.
    @Test func rangeSumMatchesScalarSum() {
        var generator = SplitMix64(seed: 9)
        let values = (0..<300).map { _ in Double.random(in: 0..<1, using: &generator) }
        values.withUnsafeBufferPointer { v in
            for _ in 0..<500 {
                let low = Int.random(in: 0...300, using: &generator)
                let high = Int.random(in: low...300, using: &generator)
                let want = values[low..<high].reduce(0, +)
                #expect(abs(FrameKernels.sum(v.baseAddress!, low..<high) - want) <= 1e-15 * want)
            }
        }
    }

    /// The one pass over a frame against plain scalar loops: the same extremes, sign changes
    /// and windowed samples exactly (runs of each sign put crossings at every offset within
    /// and between the blocks, zeros of both signs included), the power sums to 1e-14.
    @Test(arguments: [16, 64, 1024])
    func frameSumsMatchScalarLoops(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        let window = (0..<count).map { _ in Double.random(in: 0..<1, using: &generator) }
        for trial in 0..<200 {
            var sign = 1.0
            let x = (0..<count).map { _ -> Double in
                if Int.random(in: 0..<4, using: &generator) == 0 { sign = -sign }
                guard Int.random(in: 0..<50, using: &generator) != 0 else {
                    return Bool.random(using: &generator) ? 0 : -0.0
                }
                return sign * Double.random(in: 0.5..<2, using: &generator)
            }
            let center = Double.random(in: -1..<1, using: &generator), scale = 0.25
            var crossings = 0
            for n in 1..<count where (x[n - 1] >= 0) != (x[n] >= 0) { crossings += 1 }
            let d = x.map { ($0 - center) * scale }
            let want = (1...4).map { power in d.reduce(0) { $0 + pow($1, Double(power)) } }
            let bound = (1...4).map { power in 1e-14 * d.reduce(0) { $0 + pow(abs($1), Double(power)) } }
            var windowed = [Double](repeating: .nan, count: count)
            let got = x.withUnsafeBufferPointer { x in
                window.withUnsafeBufferPointer { w in
                    windowed.withUnsafeMutableBufferPointer { out in
                        FrameKernels.frameSums(
                            x.baseAddress!, center: center, scale: scale, window: w.baseAddress!,
                            windowed: out.baseAddress!, count: count)
                    }
                }
            }
            #expect(got.crossings == crossings, "trial \(trial)")
            #expect(got.minimum == x.min()! && got.maximum == x.max()!, "trial \(trial)")
            #expect(windowed == zip(x, window).map { $0 * $1 }, "trial \(trial)")
            for (index, value) in [got.s1, got.s2, got.s3, got.s4].enumerated() {
                #expect(abs(value - want[index]) <= bound[index], "trial \(trial), s\(index + 1)")
            }
        }
    }

    /// The bandwidth comes from Σk²|X| - kc·Σk|X| without a pass around the centroid. That
    /// cancels most for a narrow peak far from DC: a pure tone near Nyquist. Against the
    /// two-pass definition on the same FFT it must stay within a hundredth of docs/features.md's
    /// floor for the bandwidth (1e-6·fs), at the usual and at a long frame.
    @Test(arguments: [1024, 65536])
    func bandwidthOfANarrowPeakNearNyquist(frameLength: Int) throws {
        let fs = 51200.0
        let df = fs / Double(frameLength)
        let extractor = FeatureExtractor(
            configuration: try FeatureConfiguration(
                frameLength: frameLength, sampleRate: fs, features: [.spectralBandwidth]))
        let plan = FFTPlanCache.shared.forwardPlan(length: frameLength)
        let window = HannWindow(length: frameLength)
        let input = FFTWBuffer(count: frameLength)
        let output = FFTWBuffer(count: 2 * (frameLength / 2 + 1))
        for tone in [0.45 * fs, 0.49 * fs, 0.4999 * fs, 0.5 * fs - df] {
            let frame = (0..<frameLength).map { n in sin(2 * Double.pi * tone * Double(n) / fs) }
            var got = [Double.nan]
            frame.withUnsafeBufferPointer { frame in
                got.withUnsafeMutableBufferPointer { extractor.extract(frame, into: $0) }
            }
            for n in 0..<frameLength { input.base[n] = frame[n] * window.coefficients[n] }
            plan.execute(input: input.base, output: output.base)
            let magnitudes = (0...(frameLength / 2)).map { k in
                (output.base[2 * k] * output.base[2 * k] + output.base[2 * k + 1] * output.base[2 * k + 1]).squareRoot()
            }
            let total = magnitudes.reduce(0, +)
            let centroid = magnitudes.indices.reduce(0.0) { $0 + Double($1) * df * magnitudes[$1] } / total
            let spread = magnitudes.indices.reduce(0.0) { sum, k in
                let d = Double(k) * df - centroid
                return sum + magnitudes[k] * d * d
            }
            let want = (spread / total).squareRoot()
            #expect(abs(got[0] - want) <= 1e-8 * fs, "tone \(tone) Hz: \(got[0]) vs \(want)")
        }
    }
}
