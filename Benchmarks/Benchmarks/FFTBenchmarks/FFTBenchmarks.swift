import Benchmark
import BenchmarkSupport
import SondeCore
import SondeDSP

/// Frames per second through the FFT path for N = 64 ... 65536.
///
/// SondeDSP's FFTW plan type is internal, so a frame goes through the public
/// `FeatureExtractor` asking only for `total_power`. That costs the time-domain sums, the
/// Hann window, the r2c FFT (FFTW_ESTIMATE, as sonde plans it) and the spectral passes
/// (the extractor measures every spectral feature once it has a spectrum): an upper
/// bound on the bare FFT, and the figure to watch across sizes. A bare `execute`
/// benchmark needs a public FFT type in SondeDSP.
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
            for _ in benchmark.scaledIterations { state.measure() }
            blackHole(state.values[0])
        } setup: {
            try FrameState(length: length, features: [.totalPower])
        }
    }
}

/// One extractor, one frame of the test signal and its output, made in set-up.
final class FrameState {
    let extractor: FeatureExtractor
    let frame: [Double]
    var values: [Double]

    init(length: Int, features: [Feature]) throws {
        let configuration = try FeatureConfiguration(
            frameLength: length, sampleRate: Workload.sampleRate, features: features)
        extractor = FeatureExtractor(configuration: configuration)
        frame = TestSignal.channel(0, count: length)
        values = [Double](repeating: 0, count: configuration.columnCount)
    }

    func measure() {
        frame.withUnsafeBufferPointer { frame in
            values.withUnsafeMutableBufferPointer { values in extractor.extract(frame, into: values) }
        }
    }
}
