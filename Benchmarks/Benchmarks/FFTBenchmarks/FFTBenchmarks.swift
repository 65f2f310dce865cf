import Benchmark
import BenchmarkSupport
import SondeCore
import SondeDSP

/// Frames per second through the bare FFT for N = 64 ... 65536: SondeDSP's public
/// `MagnitudeSpectrum`, which is the Hann window, FFTW's r2c transform (FFTW_ESTIMATE, as
/// sonde plans it) and |X[k]|, nothing else. It is the loop `sonde bench --fft-only` runs,
/// the lower bound the whole feature set is measured against.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.kernelMetrics, warmupIterations: 2, maxDuration: .milliseconds(500),
        thresholds: Tolerances.thresholds(for: Tolerances.kernelMetrics))

    for exponent in 6...16 {
        let length = 1 << exponent
        // 1000 frames an iteration, so throughput reads as frames/s in K and the malloc
        // counter as allocations per frame; the largest sizes get longer to run.
        var configuration = Benchmark.defaultConfiguration
        configuration.scalingFactor = .kilo
        if length >= 16384 { configuration.maxDuration = .seconds(2) }
        // Zero-padded so the table sorts by size.
        let name = "spectrum-N=" + String(repeating: "0", count: 5 - String(length).count) + String(length)
        Benchmark(name, configuration: configuration) { benchmark, state in
            var sum = 0.0
            for _ in benchmark.scaledIterations { sum += state.transform() }
            blackHole(sum)
        } setup: {
            FrameState(length: length)
        }
    }
}

/// One spectrum (plan and buffers) and one frame of the test signal, made in set-up.
final class FrameState {
    let spectrum: MagnitudeSpectrum
    let frame: [Double]

    init(length: Int) {
        spectrum = MagnitudeSpectrum(frameLength: length)
        frame = TestSignal.channel(0, count: length)
    }

    /// Σ|X[k]| of the frame, so the work cannot be optimised away.
    func transform() -> Double {
        frame.withUnsafeBufferPointer { spectrum.sumOfMagnitudes($0) }
    }
}
