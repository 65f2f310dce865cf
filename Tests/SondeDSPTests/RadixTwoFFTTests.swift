import Foundation
import Testing

@testable import SondeDSP

/// The envelope spectrum's and the velocity's own FFT against the DFT's definition, at sizes
/// below, at and above the cache block (2048), where the stages run in two passes.
@Suite("Radix-2 FFT")
struct RadixTwoFFTTests {
    @Test(arguments: [2, 8, 256, 2048, 4096, 16384])
    func transformIsTheDiscreteFourierTransform(_ length: Int) {
        let input = (0..<length).map { n -> SIMD2<Double> in
            let re: Double = sin(0.37 * Double(n)) + 0.1 * Double(n % 7)
            let im: Double = cos(1.3 * Double(n)) - 0.2
            return SIMD2(re, im)
        }
        var output = input
        RadixTwoFFT(length: length).transform(&output)
        // X[k] = Σ x[n] e^(-2πikn/N) at a spread of bins (all of them for small N).
        let step = max(1, length / 61)
        var largestError = 0.0
        var largest = 0.0
        for k in stride(from: 0, to: length, by: step) {
            var sum = SIMD2<Double>.zero
            for (n, x) in input.enumerated() {
                let angle = -2 * Double.pi * Double((k * n) % length) / Double(length)
                let c: Double = cos(angle)
                let s: Double = sin(angle)
                let re: Double = x.x * c - x.y * s
                let im: Double = x.x * s + x.y * c
                sum += SIMD2(re, im)
            }
            let difference: SIMD2<Double> = output[k] - sum
            let error: Double = (difference * difference).sum()
            let magnitude: Double = (sum * sum).sum()
            largestError = max(largestError, error.squareRoot())
            largest = max(largest, magnitude.squareRoot())
        }
        #expect(largest > 0)
        // Rounding grows as log2 N; 1e-12 of the largest bin is far above it and far below
        // any misplaced butterfly.
        #expect(largestError <= 1e-12 * largest, "N = \(length): \(largestError) of \(largest)")
    }
}
