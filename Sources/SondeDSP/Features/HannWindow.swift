import Foundation

/// The periodic Hann window of FEATURES.md section 5, with the two sums the features need.
struct HannWindow {
    let coefficients: [Double]
    /// Σw, for `dominant_amplitude`.
    let sum: Double
    /// Σw², for the PSD scaling.
    let sumOfSquares: Double

    /// - Parameter length: N, the frame length (> 0).
    init(length: Int) {
        // w[n] = 0.5 - 0.5 cos(2πn/N): periodic (not symmetric), as scipy's get_window('hann', N).
        let coefficients = (0..<length).map { n in 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(length)) }
        self.coefficients = coefficients
        sum = coefficients.reduce(0, +)
        sumOfSquares = coefficients.reduce(0) { $0 + $1 * $1 }
    }
}
