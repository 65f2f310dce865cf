import Benchmark
import BenchmarkSupport
import SondeDSP

/// Samples per second through `FilterChain`'s SOS cascade, state carried: the workload's
/// `highpass:10:4` at 51.2 kHz (2 biquads) and an 8th-order band-pass (8 biquads) for
/// how it scales with sections. 1,000,000 samples an iteration, in 10,000-sample blocks
/// as the pipeline feeds it; throughput reads as samples/s in M.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.kernelMetrics, warmupIterations: 2, scalingFactor: .mega, maxDuration: .seconds(1),
        thresholds: Tolerances.thresholds(for: Tolerances.kernelMetrics))

    for (name, spec) in [
        ("highpass-10Hz-order4", Workload.filter), ("bandpass-100-5000Hz-order8", "bandpass:100-5000:8"),
    ] {
        Benchmark(name) { _, state in
            state.run()
        } setup: {
            try FilterState(spec: spec)
        }
    }
}

final class FilterState {
    static let samplesPerIteration = 1_000_000
    static let block = 10_000

    var chain: FilterChain
    let input: [Double]
    var output: [Double]

    init(spec: String) throws {
        chain = FilterChain([try FilterSpec.parse(spec).design(sampleRate: Workload.sampleRate)])
        input = TestSignal.channel(0, count: Self.samplesPerIteration)
        output = [Double](repeating: 0, count: Self.samplesPerIteration)
    }

    func run() {
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                var start = 0
                while start < input.count {
                    let end = min(start + Self.block, input.count)
                    chain.process(
                        UnsafeBufferPointer(rebasing: input[start..<end]),
                        into: UnsafeMutableBufferPointer(rebasing: output[start..<end]))
                    start = end
                }
            }
        }
        blackHole(output[output.count - 1])
    }
}
