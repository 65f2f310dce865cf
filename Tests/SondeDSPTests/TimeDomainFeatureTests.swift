import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The time-domain features on frames chosen to defeat the extractor's one-pass shortcut:
/// its center and scale are guessed from sixteen samples spread over the frame, and these
/// frames make those samples unrepresentative.
@Suite("Time-domain features")
struct TimeDomainFeatureTests {
    static let features: [Feature] = [
        .mean, .rms, .std, .peak, .peakToPeak, .crestFactor, .skewness, .kurtosis, .zeroCrossingRate,
    ]

    /// The features of `frame`, in the order of `features`.
    static func measure(_ frame: [Double]) throws -> [Double] {
        let extractor = FeatureExtractor(
            configuration: try FeatureConfiguration(frameLength: frame.count, sampleRate: 1000, features: features))
        var values = [Double](repeating: .nan, count: features.count)
        frame.withUnsafeBufferPointer { frame in
            values.withUnsafeMutableBufferPointer { extractor.extract(frame, into: $0) }
        }
        return values
    }

    /// docs/features.md section 4 in two plain passes: the mean, then powers of the deviations.
    static func twoPass(_ x: [Double]) -> [Double] {
        let n = Double(x.count)
        let mean = x.reduce(0, +) / n
        func moment(_ power: Double) -> Double { x.reduce(0) { $0 + pow($1 - mean, power) } / n }
        let m2 = moment(2), peak = x.map(abs).max() ?? 0
        let rms = (x.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
        var crossings = 0
        for i in 1..<x.count where (x[i - 1] >= 0) != (x[i] >= 0) { crossings += 1 }
        return [
            mean, rms, m2.squareRoot(), peak, (x.max() ?? 0) - (x.min() ?? 0), peak / rms,
            moment(3) / pow(m2, 1.5), moment(4) / (m2 * m2), Double(crossings) / (n - 1),
        ]
    }

    /// Whether `got` is within `relative`·|want| plus `floor`, the floor in units of the
    /// frame's peak for the first five features (the ones with the signal's unit).
    static func agree(_ got: [Double], _ want: [Double], relative: Double, floor: Double) -> [String] {
        features.indices.compactMap { index in
            let unit = index < 5 ? want[3] : 1
            guard !(abs(got[index] - want[index]) <= relative * abs(want[index]) + floor * unit) else { return nil }
            return "\(features[index]): \(got[index]) against \(want[index])"
        }
    }

    /// Noise whose every 64th sample, the ones the guess reads, is zero.
    static func noiseWithZerosWhereGuessed(count: Int, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { n in n % (count / 16) == 0 ? 0 : 0.25 + Double.random(in: -1..<1, using: &generator) }
    }

    /// A guess far from the peak's scale (zeros where it looks) must not be used: at 2^-700
    /// the fourth powers underflow to zero and at 2^700 they overflow, unless the pass is
    /// repeated at the peak's scale. Scaled by a power of two, every feature scales exactly
    /// with the frame (mean, rms, std, peak, peak-to-peak) or not at all (the rest).
    @Test(arguments: [-700, 700])
    func aGuessedScaleFarFromThePeakIsNotUsed(exponent: Int) throws {
        let frame = Self.noiseWithZerosWhereGuessed(count: 1024, seed: 5)
        let factor = Double(sign: .plus, exponent: exponent, significand: 1)
        let want = try Self.measure(frame)
        let got = try Self.measure(frame.map { $0 * factor })
        let scaled = want.indices.map { index in index < 5 ? want[index] * factor : want[index] }
        #expect(Self.agree(got, scaled, relative: 1e-13, floor: 1e-15) == [])
    }

    /// Impulses exactly where the guess looks, one every 4096 samples of 65536, put its
    /// center 64 standard deviations from the mean; shifting the moments that far would
    /// cost about 4096² units in the last place of m4 (1.8e-9), so the pass must be
    /// repeated around the mean. On a 2^-20 grid, as below, so the plain passes are exact
    /// up to the powers.
    @Test func impulsesWhereGuessedStillGiveTwoPassMoments() throws {
        var generator = SplitMix64(seed: 8)
        let frame = (0..<65536).map { n in
            9.75
                + (n % 4096 == 0
                    ? 50 : (1e-3 * Double.random(in: -1..<1, using: &generator) * 0x1p20).rounded() / 0x1p20)
        }
        let got = try Self.measure(frame)
        #expect(Self.agree(got, Self.twoPass(frame), relative: 1e-12, floor: 1e-15) == [])
    }

    /// An ordinary frame, where the guess is used: the same as two plain passes, offset
    /// included. The vibration is on a grid of 2^-20, so that the samples, their sum, the
    /// mean (N = 1024) and every deviation from it are exact in the plain passes too, and
    /// only the powers round there.
    @Test func anOffsetVibrationMatchesTwoPasses() throws {
        var generator = SplitMix64(seed: 13)
        let frame = (0..<1024).map { n in
            let vibration = 0.5 * sin(Double(n) * 0.37) + 0.01 * Double.random(in: -1..<1, using: &generator)
            return 101_325 + (vibration * 0x1p20).rounded() / 0x1p20
        }
        let got = try Self.measure(frame)
        #expect(Self.agree(got, Self.twoPass(frame), relative: 1e-13, floor: 1e-15) == [])
    }
}
