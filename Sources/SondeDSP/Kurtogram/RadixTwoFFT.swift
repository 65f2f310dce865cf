import Foundation

/// An in-place iterative radix-2 complex FFT, X[k] = Σ x[n] e^(-2πikn/N), for the short
/// power-of-two segments of the squared-envelope spectrum (kept in pure Swift so the
/// kurtogram needs no FFTW plan; these segments are a small part of its cost).
struct RadixTwoFFT {
    let length: Int
    /// e^(-2πik/N), k = 0..<N/2.
    private let twiddles: [SIMD2<Double>]

    /// - Precondition: `length` is a power of two, ≥ 2.
    init(length: Int) {
        precondition(length >= 2 && length & (length - 1) == 0, "RadixTwoFFT: \(length) is not a power of two")
        self.length = length
        twiddles = (0..<(length / 2)).map {
            let angle = -2 * Double.pi * Double($0) / Double(length)
            return SIMD2(cos(angle), sin(angle))
        }
    }

    func transform(_ data: inout [SIMD2<Double>]) {
        precondition(data.count == length, "RadixTwoFFT: \(data.count) samples, plan for \(length)")
        var j = 0
        for i in 1..<length {
            var bit = length >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                data.swapAt(i, j)
            }
        }
        var span = 1
        while span < length {
            let twiddleStride = length / (2 * span)
            var start = 0
            while start < length {
                for k in 0..<span {
                    let w = twiddles[k * twiddleStride]
                    let b = data[start + k + span]
                    let product = SIMD2(w.x * b.x - w.y * b.y, w.x * b.y + w.y * b.x)
                    let a = data[start + k]
                    data[start + k] = a + product
                    data[start + k + span] = a - product
                }
                start += 2 * span
            }
            span *= 2
        }
    }
}
