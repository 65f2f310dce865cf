import Benchmark
import BenchmarkSupport
import SondeCore

/// Samples through `SondeCore.RingBuffer`: 1,000,000 samples written and read per
/// iteration, so the scaled throughput column reads as samples/s.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: Tolerances.kernelMetrics, warmupIterations: 2, scalingFactor: .mega, maxDuration: .seconds(1),
        thresholds: Tolerances.thresholds(for: Tolerances.kernelMetrics))

    Benchmark("write+read-1thread") { _, state in
        state.runOnOneThread()
    } setup: {
        RingState()
    }

    // The pipeline's shape: the reader thread writes, the framer reads, each parking on
    // a full or empty ring.
    Benchmark("write+read-2tasks") { _, state async in
        await state.runAcrossTasks()
    } setup: {
        RingState()
    }
}

/// A ring and two blocks, made in set-up and reused by every iteration.
final class RingState: @unchecked Sendable {
    // @unchecked: the producer touches only `source`, the consumer only `destination`.
    static let samplesPerIteration = 1_000_000
    static let block = 4096

    let ring = RingBuffer(capacity: 1 << 16)
    let source = UnsafeMutableBufferPointer<Double>.allocate(capacity: block)
    let destination = UnsafeMutableBufferPointer<Double>.allocate(capacity: block)

    init() {
        for i in source.indices { source[i] = Double(i) }
        destination.initialize(repeating: 0)
    }

    deinit {
        source.deallocate()
        destination.deallocate()
    }

    func runOnOneThread() {
        var remaining = Self.samplesPerIteration
        while remaining > 0 {
            let count = min(Self.block, remaining)
            ring.write(UnsafeBufferPointer(rebasing: source[0..<count]))
            remaining -= ring.read(into: UnsafeMutableBufferPointer(rebasing: destination[0..<count]))
        }
        blackHole(destination[0])
    }

    func runAcrossTasks() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.produce() }
            group.addTask { await self.consume() }
        }
        blackHole(destination[0])
    }

    private func produce() async {
        var remaining = Self.samplesPerIteration
        while remaining > 0 {
            let count = min(Self.block, remaining)
            await ring.writeAll(UnsafeBufferPointer(rebasing: source[0..<count]))
            remaining -= count
        }
    }

    private func consume() async {
        var remaining = Self.samplesPerIteration
        while remaining > 0 {
            let wanted = min(Self.block, remaining)
            if ring.readableCount < wanted { await ring.waitForData(wanted) }
            remaining -= ring.read(into: UnsafeMutableBufferPointer(rebasing: destination[0..<wanted]))
        }
    }
}
