import Benchmark
import BenchmarkSupport
import SondeCore
import SondeIO

/// Input bytes per second through `SampleSources.open(path:options:)` and `read(into:)`,
/// on files written in set-up (from the page cache once warmed up). Each iteration opens
/// the file and reads it to the end; the "Throughput (bytes / s)" row is the figure,
/// with an M suffix for MB/s.
let benchmarks: @Sendable () -> Void = {
    let metrics = Tolerances.kernelMetrics + [.bytesPerSecond]
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, warmupIterations: 1, maxDuration: .seconds(2),
        thresholds: Tolerances.thresholds(for: metrics))

    // 2 numeric columns with a header, 1,000,000 rows (about 20 MB): the shape of issue 6's
    // CSV ingest target.
    Benchmark("csv-2columns-1Mrows") { benchmark, input in
        try input.readAll(benchmark)
    } setup: {
        try ReaderInput.csv(rows: 1_000_000)
    } teardown: {
        ReaderInput.directory?.remove()
    }

    // Raw interleaved f32le, 2 channels, 4 Mi frames (32 MiB): the workload format.
    Benchmark("raw-f32le-2ch-4Miframes") { benchmark, input in
        try input.readAll(benchmark)
    } setup: {
        try ReaderInput.raw(frames: 1 << 22)
    } teardown: {
        ReaderInput.directory?.remove()
    }
}

struct ReaderInput {
    /// Made by set-up, removed by teardown (which gets no set-up state).
    nonisolated(unsafe) static var directory: TemporaryDirectory?

    let path: String
    let bytes: Int
    let options: SampleSourceOptions

    static func csv(rows: Int) throws -> ReaderInput {
        let directory = try TemporaryDirectory(prefix: "sonde-bench-readers")
        Self.directory = directory
        let x = TestSignal.channel(0, count: rows)
        let y = TestSignal.channel(1, count: rows)
        var text: [UInt8] = Array("x,y\n".utf8)
        text.reserveCapacity(rows * 24)
        // Six decimals, as a logger writes them.
        for row in 0..<rows {
            text += "\((x[row] * 1e6).rounded() / 1e6),\((y[row] * 1e6).rounded() / 1e6)\n".utf8
        }
        let path = try directory.write("input.csv", bytes: text)
        return ReaderInput(path: path, bytes: text.count, options: SampleSourceOptions(sampleRate: Workload.sampleRate))
    }

    static func raw(frames: Int) throws -> ReaderInput {
        let directory = try TemporaryDirectory(prefix: "sonde-bench-readers")
        Self.directory = directory
        let samples = TestSignal.interleaved(channels: 2, frames: frames)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 4)
        for sample in samples {
            withUnsafeBytes(of: Float(sample).bitPattern.littleEndian) { bytes += $0 }
        }
        let path = try directory.write("input.f32le", bytes: bytes)
        return ReaderInput(
            path: path, bytes: bytes.count,
            options: SampleSourceOptions(sampleRate: Workload.sampleRate, channels: 2, sampleType: .f32le))
    }

    /// Opens and reads the whole file into one 64 Ki-sample buffer, and records bytes/s.
    func readAll(_ benchmark: Benchmark) throws {
        var buffer = [Double](repeating: 0, count: 1 << 16)
        var frames = 0
        let seconds = try secondsElapsed {
            let source = try SampleSources.open(path: path, options: options)
            try buffer.withUnsafeMutableBufferPointer { buffer in
                while true {
                    let count = try source.read(into: buffer)
                    if count == 0 { break }
                    frames += count
                }
            }
        }
        blackHole(frames)
        benchmark.measurement(.bytesPerSecond, Int(Double(bytes) / seconds))
    }
}
