import Benchmark
import BenchmarkSupport
import SondeCore
import SondeDSP
import SondeIO
import SondePipeline

/// Samples per second (all channels together) through `PipelineGraph.run(inputs:emit:)`:
/// the issue-6 workload (N = 1024, H = 512, highpass:10:4, every feature, 3 bands) on
/// 1,000,000 samples an iteration from an in-memory source, records counted and dropped.
/// Throughput reads as samples/s in M. Each iteration is a whole run, graph set-up and
/// worker threads included, as `sonde process` does it once per invocation.
let benchmarks: @Sendable () -> Void = {
    let metrics = Tolerances.kernelMetrics + [.peakMemoryResident]
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, warmupIterations: 2, scalingFactor: .mega, maxDuration: .seconds(2),
        thresholds: Tolerances.thresholds(for: metrics, allocations: Tolerances.pipelineAllocations))

    for channels in [1, 2] {
        for jobs in [1, 2] {
            Benchmark("process-\(channels)ch-jobs\(jobs)") { _, input async throws in
                try await input.run(jobs: jobs)
            } setup: {
                try PipelineInput(channels: channels)
            }
        }
    }

    // Steady state: the same run with CSV encoding in the workers, on 1 M and on 8 M
    // samples. Set-up allocations (threads, queues, extractors, pools filling) are the
    // same in both, so `Malloc (total)` of the 8 M run minus the 1 M run, divided by the
    // 6,832 frame-channels more it measures, is what one frame costs in steady state.
    let steadyMetrics: [BenchmarkMetric] = [.mallocCountTotal, .wallClock]
    for millions in [1, 8] {
        Benchmark(
            "steady-2ch-jobs2-csv-\(millions)M",
            configuration: .init(
                metrics: steadyMetrics, scalingFactor: .one,
                thresholds: Tolerances.thresholds(for: steadyMetrics, allocations: Tolerances.pipelineAllocations))
        ) { _, input async throws in
            try await input.run(jobs: 2, encoder: CSVRecordEncoder(includesFile: false))
        } setup: {
            try PipelineInput(channels: 2, samples: millions * 1_000_000)
        }
    }
}

struct PipelineInput: Sendable {
    static let samplesPerIteration = 1_000_000

    let channels: Int
    let samples: [Double]
    let settings: PipelineSettings

    init(channels: Int, samples count: Int = samplesPerIteration) throws {
        self.channels = channels
        samples = TestSignal.interleaved(channels: channels, frames: count / channels)
        settings = try PipelineSettings(
            frameLength: Workload.frameLength, hop: Workload.hop, filters: [FilterSpec.parse(Workload.filter)],
            bands: Band.parseList(Workload.bands))
    }

    func run(jobs: Int, encoder: (any RecordEncoder)? = nil) async throws {
        let source = MemorySampleSource(samples: samples, channels: channels)
        let graph = PipelineGraph(settings: settings, options: PipelineGraph.Options(jobs: jobs, encoder: encoder))
        let summary = try await graph.run(inputs: [PipelineGraph.Input(name: "memory", source: source)]) { batch in
            blackHole(batch.recordCount)
        }
        blackHole(summary.records)
    }
}
