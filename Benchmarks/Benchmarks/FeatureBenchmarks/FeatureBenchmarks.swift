import Benchmark
import BenchmarkSupport
import SondeCore
import SondeDSP

/// Frames per second through `FeatureExtractor.extract(_:into:)`, 1000 consecutive frames
/// (hop N/2) of the test signal an iteration, so throughput reads as frames/s in K. The
/// malloc counter must stay at 0: extraction allocates nothing per frame.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.kernelMetrics, warmupIterations: 2, scalingFactor: .kilo, maxDuration: .seconds(1),
        thresholds: Tolerances.thresholds(for: Tolerances.kernelMetrics))

    let timeDomain: [Feature] = [
        .mean, .rms, .std, .peak, .peakToPeak, .crestFactor, .skewness, .kurtosis, .zeroCrossingRate,
    ]
    let cases: [(name: String, length: Int, features: [Feature], bands: Bool)] = [
        ("all+3bands-N=1024", 1024, Feature.allCases, true),
        ("timedomain-N=1024", 1024, timeDomain, false),
        ("all+3bands-N=8192", 8192, Feature.allCases, true),
    ]
    for item in cases {
        Benchmark(item.name) { _, state in
            state.run()
        } setup: {
            try ExtractionState(length: item.length, features: item.features, bands: item.bands)
        }
    }
}

final class ExtractionState {
    static let frames = 1000

    let extractor: FeatureExtractor
    let length: Int
    let signal: [Double]
    var values: [Double]

    init(length: Int, features: [Feature], bands: Bool) throws {
        let configuration = try FeatureConfiguration(
            frameLength: length, sampleRate: Workload.sampleRate, features: features,
            bands: bands ? Band.parseList(Workload.bands) : [])
        extractor = FeatureExtractor(configuration: configuration)
        self.length = length
        signal = TestSignal.channel(0, count: (Self.frames - 1) * (length / 2) + length)
        values = [Double](repeating: 0, count: configuration.columnCount)
    }

    func run() {
        let hop = length / 2
        signal.withUnsafeBufferPointer { signal in
            values.withUnsafeMutableBufferPointer { values in
                for frame in 0..<Self.frames {
                    extractor.extract(
                        UnsafeBufferPointer(rebasing: signal[(frame * hop)..<(frame * hop + length)]), into: values)
                }
            }
        }
        blackHole(values[0])
    }
}
