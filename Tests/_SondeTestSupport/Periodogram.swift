import Foundation

/// docs/features.md section 5's `P[k]` by a direct DFT: slow and obviously right, for tests of
/// code that draws spectra without sonde's FFT in the loop.
public enum Periodogram {
    /// `P[k]`, k = 0...N/2, of one frame under the periodic Hann window.
    public static func density(_ frame: [Double], sampleRate: Double) -> [Double] {
        let n = frame.count
        let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        let energy = window.reduce(0) { $0 + $1 * $1 }
        return (0...(n / 2)).map { k in
            var re = 0.0, im = 0.0
            for i in 0..<n {
                let angle = -2 * Double.pi * Double(k * i % n) / Double(n)
                re += window[i] * frame[i] * cos(angle)
                im += window[i] * frame[i] * sin(angle)
            }
            let p = (re * re + im * im) / (sampleRate * energy)
            return k == 0 || k == n / 2 ? p : 2 * p
        }
    }
}
