import Foundation

extension KurtogramBandSignal {
    /// The analytic signal of one band of your choice, at the input's rate: an ideal (brick-wall)
    /// band-pass in the frequency domain, so that a band the kurtogram's grid does not have can
    /// still be demodulated (`sonde spectrum --envelope --band LO-HI`).
    ///
    /// With M the smallest power of two ≥ n (the samples zero-padded to M), X = FFT_M(x),
    /// f_k = k·fs/M and H[k] = 2 for 0 < k < M/2 with LO ≤ f_k ≤ HI, H[0] = 1 if LO = 0,
    /// H[M/2] = 1 if HI = fs/2, 0 elsewhere (negative frequencies included): c = IFFT_M(X·H)
    /// cut to its first n samples, which is `numpy.fft.ifft(numpy.fft.fft(x, M) * H)[:n]`.
    /// Zero-padding to a power of two keeps it on `RadixTwoFFT`, with no FFTW plan per length.
    /// - Parameters:
    ///   - samples: the channel, finite samples.
    ///   - sampleRate: Hz, > 0.
    ///   - low, high: the band in Hz, 0 ≤ low < high ≤ sampleRate/2.
    /// - Throws: `KurtogramError.invalidSampleRate`, `.invalidBand`, `.nonFiniteSample`.
    public static func brickWall(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, low: Double, high: Double
    ) throws -> KurtogramBandSignal {
        guard sampleRate.isFinite, sampleRate > 0 else { throw KurtogramError.invalidSampleRate(sampleRate) }
        let nyquist = sampleRate / 2
        guard low.isFinite, high.isFinite, low >= 0, low < high, high <= nyquist else {
            throw KurtogramError.invalidBand(low: low, high: high, nyquist: nyquist)
        }
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw KurtogramError.nonFiniteSample(index: index)
        }
        let count = samples.count
        var length = 2
        while length < count {
            length *= 2
        }
        var spectrum = [SIMD2<Double>](repeating: .zero, count: length)
        for (index, value) in samples.enumerated() {
            spectrum[index] = SIMD2(value, 0)
        }
        let fft = RadixTwoFFT(length: length)
        fft.transform(&spectrum)
        // X·H, conjugated so that a forward transform inverts it: IFFT(Y) = conj(FFT(conj Y))/M.
        let half = length / 2
        for k in 0..<length {
            let frequency = Double(k) * sampleRate / Double(length)
            var gain = 0.0
            if k <= half, frequency >= low, frequency <= high {
                gain = k == 0 || k == half ? 1 : 2
            }
            spectrum[k] = SIMD2(gain * spectrum[k].x, -gain * spectrum[k].y)
        }
        fft.transform(&spectrum)
        let scale = 1 / Double(length)
        let band = (0..<count).map { SIMD2(spectrum[$0].x * scale, -spectrum[$0].y * scale) }
        return KurtogramBandSignal(samples: band, sampleRate: sampleRate)
    }
}
