import Dispatch
import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

/// Issue 30: a Parquet writer lent a run's workers encodes each row group's column chunks
/// side by side and writes the same bytes as one that encodes them in turn.
@Suite struct ParquetSideBySideTests {
    /// Three inputs of 3 channels, 5 value columns, 1,000 frames each: with 700-row groups,
    /// full groups, a group split between inputs and a last partial one.
    private func batches() -> [RecordBatch] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<3).flatMap { input in
            stride(from: 0, to: 1000, by: 64).map { first in
                let frames = Swift.min(64, 1000 - first)
                let values = (0..<(frames * 3 * 5)).map { _ -> Double in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return Double(Int64(bitPattern: state >> 11)) * 0x1p-40
                }
                return RecordBatch(
                    fileName: "input-\(input).wav", channelNames: ["ch0", "ch1", "ch2"], columnCount: 5,
                    firstFrame: first, frameCount: frames, hop: 512, clock: .seconds(sampleRate: 25600, offset: 0),
                    values: values)
            }
        }
    }

    private func write(_ compression: ParquetCompression, work: ParallelWork?) throws -> Data {
        let path = TestScratch.root.appendingPathComponent("sonde-pq-\(UUID()).parquet").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ParquetRecordWriter(
            layout: RecordLayout(valueColumns: ["a", "b", "c", "d", "e"], includesFile: true),
            output: try OutputFile(atomicallyReplacing: path),
            options: ParquetWriterOptions(compression: compression, rowGroupRows: 700))
        try writer.lend(work)
        for batch in batches() { try writer.write(batch) }
        try writer.lend(nil)
        try writer.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: [ParquetCompression.zstd, .none], [1, 3, 8])
    func columnChunksEncodedSideBySideAreTheSameBytes(compression: ParquetCompression, lanes: Int) throws {
        let started = Started()
        // Pieces on other threads, as the graph's workers run them.
        let work = ParallelWork(lanes: lanes) { piece in
            started.add()
            DispatchQueue.global().async { piece() }
        }
        let sideBySide = try write(compression, work: work)
        let inTurn = try write(compression, work: nil)
        #expect(sideBySide == inTurn)
        #expect(sideBySide.count > 10_000)
        // 9,000 rows: 13 groups of 10 column chunks, in waves of `lanes`; a wave of one
        // chunk runs on the caller, every other chunk went to the workers.
        let perGroup = stride(from: 0, to: 10, by: lanes).map { Swift.min(lanes, 10 - $0) }.filter { $0 > 1 }
        #expect(started.count == 13 * perGroup.reduce(0, +))
        // Once closed, the pieces run in turn on the caller: still the same bytes.
        work.close()
        #expect(try write(compression, work: work) == inTurn)
    }
}

private final class Started: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
