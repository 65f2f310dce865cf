import Foundation

/// A synthetic vibration record of a rolling-element bearing, as issue 47 asks the tests to
/// write: shaft harmonics, a gear mesh, white noise, and for a fault a train of impulses at
/// the defect rate (intervals with uniform random slip) each ringing a structural resonance.
/// Inner-race and ball faults are amplitude-modulated at shaft speed (the defect turns in and
/// out of the load zone). Deterministic for a seed.
public struct SyntheticBearingSignal: Sendable {
    public enum Fault: String, Sendable, CaseIterable {
        case outerRace, innerRace, ball, healthy
    }

    public var sampleRate = 25_600.0
    /// Seconds.
    public var duration = 4.0
    /// Shaft speed, Hz.
    public var shaftHz = 29.95
    public var fault = Fault.outerRace
    /// Impulses per second (the defect frequency); unused when healthy.
    public var defectHz = 107.4
    /// Centre of the ringing resonance, Hz.
    public var resonanceHz = 3_000.0
    /// Damping ratio of the resonance (0.05: about 300 Hz wide at 3 kHz).
    public var damping = 0.05
    /// Each impulse interval is (1/defectHz)(1 + u), u uniform in ±slip.
    public var slip = 0.015
    /// 10 log10(fault power / noise power); a healthy signal gets the noise an outer-race
    /// fault of the same parameters would have at this SNR.
    public var snrDecibels = -5.0
    public var seed: UInt64 = 1

    public init() {}

    /// The samples.
    public func samples() -> [Double] {
        var random = SplitMix64(seed: seed)
        let count = Int((sampleRate * duration).rounded())
        var x = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / sampleRate
            var value = 0.0
            for (harmonic, amplitude) in [(1.0, 1.0), (2.0, 0.5), (3.0, 0.3)] {
                value += amplitude * sin(2 * Double.pi * harmonic * shaftHz * t + 0.7 * harmonic)
            }
            // A 32-tooth gear: its mesh, 20% modulated at shaft speed, and the second harmonic.
            let mesh = 32 * shaftHz
            value += 0.4 * (1 + 0.2 * cos(2 * Double.pi * shaftHz * t)) * sin(2 * Double.pi * mesh * t)
            value += 0.15 * sin(2 * Double.pi * 2 * mesh * t + 1.1)
            x[i] = value
        }
        var impulses = [Double](repeating: 0, count: count)
        let alpha = 2 * Double.pi * resonanceHz * damping
        let omega = 2 * Double.pi * resonanceHz * (1 - damping * damping).squareRoot()
        let ring = Int(0.02 * sampleRate)
        var tk = Double.random(in: 0..<(1 / defectHz), using: &random)
        let modulated = fault == .innerRace || fault == .ball
        while tk < duration {
            let amplitude = modulated ? 0.6 + 0.4 * cos(2 * Double.pi * shaftHz * tk) : 1
            let start = Int((tk * sampleRate).rounded(.up))
            for i in start..<min(count, start + ring) {
                let tau = Double(i) / sampleRate - tk
                impulses[i] += amplitude * exp(-alpha * tau) * sin(omega * tau)
            }
            tk += (1 / defectHz) * (1 + Double.random(in: -slip...slip, using: &random))
        }
        let faultPower = impulses.reduce(0) { $0 + $1 * $1 } / Double(count)
        let noiseRMS = (faultPower / pow(10, snrDecibels / 10)).squareRoot()
        for i in 0..<count {
            // Box-Muller: one standard normal per sample.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
            let u2 = Double.random(in: 0..<1, using: &random)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            x[i] += noiseRMS * normal + (fault == .healthy ? 0 : impulses[i])
        }
        return x
    }
}
