import SondeCore
import Testing

@testable import SondeIO

/// The workers' encoded records as the writers take them: in output order, after what the
/// buffer held, and one by one for a writer that flushes each record.
@Suite struct EncodedRecordsTests {
    @Test func recordsAreAppendedAfterWhatTheBufferHeldAndComeOneByOne() throws {
        let records: [[UInt8]] = [[65, 66], [67], [68, 69, 70], [71], [72, 73], [74]]
        var ends: [Int] = []
        var bytes: [UInt8] = []
        for record in records {
            bytes += record
            ends.append(bytes.count)
        }
        let batch = RecordBatch(
            fileName: "f", channelNames: ["a", "b", "c"], columnCount: 0, firstFrame: 0, frameCount: 2, hop: 1,
            clock: .seconds(sampleRate: 1, offset: 0), values: [], encoded: EncodedRecords(bytes: bytes, ends: ends))
        var buffer: [UInt8] = [1, 2, 3]
        #expect(batch.appendEncodedRecords(to: &buffer))
        #expect(buffer == [1, 2, 3] + bytes)
        var seen: [[UInt8]] = []
        try batch.forEachRecord(encoder: CSVRecordEncoder(includesFile: false)) { seen.append(Array($0)) }
        #expect(seen == records)
    }
}
