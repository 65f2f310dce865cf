import Benchmark
import BenchmarkSupport
import SondeCore
import SondeDSP
import SondeIO

/// Records per second through the CSV and NDJSON writers: 1000 records an iteration
/// (10 batches of 50 frames × 2 channels, with real feature values of the test signal,
/// every docs/features.md feature and 3 bands), so throughput reads as records/s in K.
///
/// Each iteration writes to a new `OutputFile(atomicallyReplacing:)` in a temporary
/// directory; opening it (and the CSV header) comes before the measured region, the
/// buffered bytes are written (to the page cache) inside it, and the file is abandoned,
/// not committed, after it (no fsync in the loop).
let benchmarks: @Sendable () -> Void = {
    let metrics = Tolerances.kernelMetrics + [.writeBytesLogical]
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, warmupIterations: 2, scalingFactor: .kilo, maxDuration: .seconds(1),
        thresholds: Tolerances.thresholds(for: metrics))

    for format in [OutputFormat.csv, .ndjson] {
        Benchmark("\(format.rawValue)-22columns") { benchmark, input in
            try input.write(benchmark, format: format)
        } setup: {
            try WriterInput()
        } teardown: {
            WriterInput.directory?.remove()
        }
    }
}

struct WriterInput {
    static let framesPerBatch = 50
    static let batchesPerIteration = 10
    /// Made by set-up, removed by teardown (which gets no set-up state).
    nonisolated(unsafe) static var directory: TemporaryDirectory?

    let directory: TemporaryDirectory
    let batches: [RecordBatch]
    let layout: RecordLayout

    init() throws {
        directory = try TemporaryDirectory(prefix: "sonde-bench-writers")
        Self.directory = directory
        let configuration = try Workload.featureConfiguration()
        let extractor = FeatureExtractor(configuration: configuration)
        let channels = 2
        let frames = Self.framesPerBatch * Self.batchesPerIteration
        let signals = (0..<channels).map {
            TestSignal.channel($0, count: (frames - 1) * Workload.hop + Workload.frameLength)
        }
        var values = [Double](repeating: 0, count: frames * channels * configuration.columnCount)
        values.withUnsafeMutableBufferPointer { values in
            for frame in 0..<frames {
                for channel in 0..<channels {
                    let start = frame * Workload.hop
                    let offset = (frame * channels + channel) * configuration.columnCount
                    signals[channel].withUnsafeBufferPointer { signal in
                        extractor.extract(
                            UnsafeBufferPointer(rebasing: signal[start..<(start + Workload.frameLength)]),
                            into: UnsafeMutableBufferPointer(
                                rebasing: values[offset..<(offset + configuration.columnCount)]))
                    }
                }
            }
        }
        let perBatch = Self.framesPerBatch * channels * configuration.columnCount
        batches = (0..<Self.batchesPerIteration).map { index in
            RecordBatch(
                fileName: "bench", channelNames: ["ch0", "ch1"], columnCount: configuration.columnCount,
                firstFrame: index * Self.framesPerBatch, frameCount: Self.framesPerBatch, hop: Workload.hop,
                clock: .seconds(sampleRate: Workload.sampleRate, offset: 0),
                values: Array(values[(index * perBatch)..<((index + 1) * perBatch)]))
        }
        layout = RecordLayout(valueColumns: configuration.columnNames, includesFile: false)
    }

    func write(_ benchmark: Benchmark, format: OutputFormat) throws {
        let output = try OutputFile(atomicallyReplacing: directory.file("out.\(format.rawValue)"))
        let writer = try RecordWriters.make(format: format, layout: layout, output: output)
        benchmark.startMeasurement()
        for batch in batches { try writer.write(batch) }
        // Hand the bytes to the kernel as the 1 MiB buffer would every few iterations.
        try output.flush()
        benchmark.stopMeasurement()
        output.abandon()
    }
}
