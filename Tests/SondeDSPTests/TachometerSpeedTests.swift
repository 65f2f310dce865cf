import Foundation
import Testing

@testable import SondeDSP

/// The shaft speed from a synthetic tachometer channel (docs/features.md section 9): pulses of
/// 5 V and 10% duty with noise, the speed read back, and the channels that hold no speed.
@Suite struct TachometerSpeedTests {
    /// `seconds` of pulses at `hertz` × `pulses` per second, starting at phase `phase` (cycles),
    /// with uniform noise of ±`noise` V.
    static func pulses(
        hertz: Double, pulses: Int, rate: Double = 25600, seconds: Double = 2, phase: Double = 0.37,
        noise: Double = 0.05
    ) -> [Double] {
        var generator = SystemRandomNumberGenerator()
        return (0..<Int(rate * seconds)).map { n in
            let cycle = (Double(n) / rate * hertz * Double(pulses) + phase).truncatingRemainder(dividingBy: 1)
            return (cycle < 0.1 ? 5.0 : 0.0) + Double.random(in: -noise...noise, using: &generator)
        }
    }

    @Test(arguments: [(29.95, 1), (29.95, 3), (12.5, 2), (60.0, 1)])
    func readsTheSpeed(_ hertz: Double, _ perRevolution: Int) throws {
        let samples = Self.pulses(hertz: hertz, pulses: perRevolution)
        let speed = try samples.withUnsafeBufferPointer {
            try TachometerSpeed.speed($0, sampleRate: 25600, pulsesPerRevolution: perRevolution)
        }
        // A one-sample step's crossing is known to half a sample at each end: over the
        // 2 s (51,200 samples) between the first and last edge, about 2e-5 of the speed.
        #expect(abs(speed.hertz - hertz) <= 2.5e-5 * hertz, "\(speed.hertz) Hz for \(hertz) Hz")
        // The wrong pulses per revolution scales it: the option matters.
        let doubled = try samples.withUnsafeBufferPointer {
            try TachometerSpeed.speed($0, sampleRate: 25600, pulsesPerRevolution: 2 * perRevolution)
        }
        #expect(abs(doubled.hertz - hertz / 2) <= 2.5e-5 * hertz)
    }

    @Test func noPulsesNoSpeed() {
        let flat = [Double](repeating: 1, count: 1000)
        #expect(throws: TachometerSpeed.Failure.flat) {
            try flat.withUnsafeBufferPointer { try TachometerSpeed.speed($0, sampleRate: 1000, pulsesPerRevolution: 1) }
        }
        // One pulse: an edge, but no period.
        let one = (0..<1000).map { $0 >= 400 && $0 < 450 ? 5.0 : 0.0 }
        #expect(throws: TachometerSpeed.Failure.tooFewEdges(1)) {
            try one.withUnsafeBufferPointer { try TachometerSpeed.speed($0, sampleRate: 1000, pulsesPerRevolution: 1) }
        }
    }
}
