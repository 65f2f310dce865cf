/// The bare spectral work of a frame, window + real FFT + magnitudes, with nothing else:
/// the lower bound `sonde bench --fft-only` measures the full feature set against.
public final class MagnitudeSpectrum {
    public let frameLength: Int
    private let window: HannWindow
    private let plan: RealFFTPlan
    private let input: FFTWBuffer
    private let output: FFTWBuffer

    /// - Parameter frameLength: N, a power of two from 16 to 1,048,576.
    public init(frameLength: Int) {
        self.frameLength = frameLength
        window = HannWindow(length: frameLength)
        plan = FFTPlanCache.shared.forwardPlan(length: frameLength)
        input = FFTWBuffer(count: frameLength)
        output = FFTWBuffer(count: 2 * (frameLength / 2 + 1))
    }

    /// Windows and transforms `frame` and returns Σ|X[k]|, so the work cannot be optimised away.
    public func sumOfMagnitudes(_ frame: UnsafeBufferPointer<Double>) -> Double {
        let x = input.base
        window.coefficients.withUnsafeBufferPointer { w in
            for i in 0..<frameLength { x[i] = frame[i] * w[i] }
        }
        plan.execute(input: x, output: output.base)
        var sum = 0.0
        for k in 0...(frameLength / 2) {
            let re = output.base[2 * k], im = output.base[2 * k + 1]
            sum += (re * re + im * im).squareRoot()
        }
        return sum
    }
}
