/// The Hilbert transform of a frame from one forward and one inverse real FFT: -i·X[k] on
/// the positive bins, DC and Nyquist zero, the same values as scipy's complex inverse FFT of
/// 2·X to within round-off, for half its cost. The envelope and bearing families both build
/// x + i·H[x] from it; its plans and buffers are made once per extractor and reused, so a
/// frame allocates nothing. The families reuse `real`, `complex` and `forward` afterwards.
struct FrameHilbert: ~Copyable {
    let length: Int
    let forward: RealFFTPlan
    let inverse: InverseRealFFTPlan
    /// N doubles: the frame, then N·H[x].
    let real: FFTWBuffer
    /// N/2 + 1 complex bins.
    let complex: FFTWBuffer

    init(length: Int) {
        self.length = length
        forward = FFTPlanCache.shared.forwardPlan(length: length)
        inverse = FFTPlanCache.shared.inversePlan(length: length)
        real = FFTWBuffer(count: length)
        complex = FFTWBuffer(count: 2 * (length / 2 + 1))
    }

    /// N·H[x] of the `length` samples at `x`, in `real` (the inverse FFT is unnormalised: the
    /// caller scales by 1/N where it reads it); valid until the next call.
    func unscaledTransform(of x: UnsafePointer<Double>) -> UnsafeMutablePointer<Double> {
        let n = length, buffer = real.base, spectrum = complex.base
        let nyquist = n / 2
        buffer.update(from: x, count: n)
        forward.execute(input: buffer, output: spectrum)
        // -i·X[k] = (im, -re) for 0 < k < N/2; DC and Nyquist carry no quadrature part.
        spectrum[0] = 0
        spectrum[1] = 0
        for k in 1..<nyquist {
            let re = spectrum[2 * k], im = spectrum[2 * k + 1]
            spectrum[2 * k] = im
            spectrum[2 * k + 1] = -re
        }
        spectrum[2 * nyquist] = 0
        spectrum[2 * nyquist + 1] = 0
        inverse.execute(input: spectrum, output: buffer)
        return buffer
    }
}
