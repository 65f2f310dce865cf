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
        twiddles.withUnsafeBufferPointer { twiddles in
            data.withUnsafeMutableBufferPointer { data in
                guard let twiddles = twiddles.baseAddress, let data = data.baseAddress else { return }
                transform(data, twiddles: twiddles)
            }
        }
    }

    /// The transform on raw pointers, without the array's checks in the butterflies.
    private func transform(_ data: UnsafeMutablePointer<SIMD2<Double>>, twiddles: UnsafePointer<SIMD2<Double>>) {
        let length = length
        var j = 0
        for i in 1..<length {
            var bit = length >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                let value = data[i]
                data[i] = data[j]
                data[j] = value
            }
        }
        // Every stage whose butterflies stay within a block of `block` samples, block by
        // block while it is in cache, then the wider stages over the whole array: the same
        // butterflies on the same values in another order, so the same bits (32768 points,
        // the velocity's segments: 15 passes over 512 KiB -> 5, 0.67 -> 0.55 ms with the
        // raw pointers).
        let block = min(length, 2048)
        var start = 0
        while start < length {
            stages(data + start, length: block, spans: 1..<block, twiddles: twiddles)
            start += block
        }
        stages(data, length: length, spans: block..<length, twiddles: twiddles)
    }

    /// The radix-2 stages of spans `spans` (powers of two) over `length` samples at `data`,
    /// the twiddles those of the whole transform.
    private func stages(
        _ data: UnsafeMutablePointer<SIMD2<Double>>, length: Int, spans: Range<Int>,
        twiddles: UnsafePointer<SIMD2<Double>>
    ) {
        var span = spans.lowerBound
        while span < spans.upperBound {
            let twiddleStride = self.length / (2 * span)
            var start = 0
            while start < length {
                let top = data + start
                let bottom = top + span
                for k in 0..<span {
                    let w = twiddles[k * twiddleStride]
                    let b = bottom[k]
                    let product = SIMD2(w.x * b.x - w.y * b.y, w.x * b.y + w.y * b.x)
                    let a = top[k]
                    top[k] = a + product
                    bottom[k] = a - product
                }
                start += 2 * span
            }
            span *= 2
        }
    }
}
