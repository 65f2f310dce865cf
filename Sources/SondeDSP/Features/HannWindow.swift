import Foundation
import Synchronization

/// The periodic Hann window of docs/features.md section 5, with the two sums the features need.
struct HannWindow {
    let coefficients: [Double]
    /// Σw, for `dominant_amplitude`.
    let sum: Double
    /// Σw², for the PSD scaling.
    let sumOfSquares: Double

    /// The window for `length`, computed once per process: every extractor of a run held a
    /// copy (512 KB each at N = 65536, 32 MB at 64 jobs).
    static func shared(length: Int) -> HannWindow {
        if let known = computed.withLock({ $0[length] }) { return known }
        let window = HannWindow(length: length)
        computed.withLock { $0[length] = window }
        return window
    }

    private static let computed = Mutex<[Int: HannWindow]>([:])

    /// - Parameter length: N, the frame length (> 0).
    init(length: Int) {
        // w[n] = 0.5 - 0.5 cos(2πn/N): periodic (not symmetric), as scipy's get_window('hann', N).
        let coefficients = (0..<length).map { n in 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(length)) }
        self.coefficients = coefficients
        sum = coefficients.reduce(0, +)
        sumOfSquares = coefficients.reduce(0) { $0 + $1 * $1 }
    }
}
