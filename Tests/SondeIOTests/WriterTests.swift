import Foundation
import SondeCore
import Synchronization
import Testing
import _SondeTestSupport

@testable import SondeIO

@Suite struct WriterTests {
    private func batch(
        fileName: String = "a.csv", channels: [String] = ["x", "y"],
        clock: RecordClock = .seconds(sampleRate: 100, offset: 0.5)
    ) -> RecordBatch {
        // 2 frames × 2 channels × 2 columns, values chosen to need the shortest form.
        RecordBatch(
            fileName: fileName, channelNames: channels, columnCount: 2, firstFrame: 3, frameCount: 2, hop: 10,
            clock: clock, values: [0.1, 1e-5, 2, -0.0, 1.0 / 3.0, 123456789.125, 1e300, Double.leastNonzeroMagnitude]
        )
    }

    private func temporaryPath(_ name: String) -> String {
        TestScratch.root.appendingPathComponent("sonde-writer-\(UUID().uuidString)-\(name)").path
    }

    private func render(_ format: OutputFormat, includesFile: Bool = false, batches: [RecordBatch]) throws -> String {
        let path = temporaryPath("out")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try OutputFile(atomicallyReplacing: path)
        let writer = try RecordWriters.make(
            format: format, layout: RecordLayout(valueColumns: ["rms", "band_power:0-10"], includesFile: includesFile),
            output: output)
        for batch in batches { try writer.write(batch) }
        try writer.finish()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func csvHasHeaderShortestNumbersAndFrameMajorOrder() throws {
        let text = try render(.csv, batches: [batch()])
        let table = RecordTable(csv: text)
        #expect(table.columns == ["time", "channel", "frame", "start", "rms", "band_power:0-10"])
        #expect(table.rows.map { $0[1] } == ["x", "y", "x", "y"])
        #expect(table.rows.map { $0[2] } == ["3", "3", "4", "4"])
        #expect(table.rows.map { $0[3] } == ["30", "30", "40", "40"])
        // time = start / fs + offset
        #expect(table.rows[0][0] == "\(30.0 / 100 + 0.5)")
        // Every printed number reads back to the same Double.
        let written = table.rows.flatMap { [Double($0[4])!, Double($0[5])!] }
        #expect(written.map(\.bitPattern) == batch().values.map(\.bitPattern))
    }

    @Test func csvQuotesFieldsThatNeedIt() throws {
        let text = try render(
            .csv, includesFile: true, batches: [batch(fileName: "my, \"file\".csv", channels: ["a,b", "c"])])
        let firstRecord = text.split(separator: "\n")[1]
        #expect(firstRecord.hasPrefix("\"my, \"\"file\"\".csv\",0.8,\"a,b\",3,30,"))
        #expect(RecordTable(csv: text).rows[0][0] == "my, \"file\".csv")
    }

    @Test func jsonIsOneArrayOfObjectsInColumnOrder() throws {
        let text = try render(.json, includesFile: true, batches: [batch(), batch()])
        let parsed = try JSONRecord.decodeArray(text)
        #expect(parsed.count == 8)
        #expect(parsed[1]["channel"] == .text("y"))
        #expect(parsed.map { $0["rms"]?.number } == [0.1, 2, 1.0 / 3.0, 1e300, 0.1, 2, 1.0 / 3.0, 1e300])
        // Key order is part of the contract: file, time, channel, frame, start, features.
        let firstObject = try #require(text.split(separator: "\n").dropFirst().first)
        let keys = ["\"file\"", "\"time\"", "\"channel\"", "\"frame\"", "\"start\"", "\"rms\"", "\"band_power:0-10\""]
        let positions = keys.compactMap { firstObject.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())
    }

    @Test func jsonWithoutRecordsIsAnEmptyArray() throws {
        let text = try render(.json, batches: [])
        #expect(try JSONRecord.decodeArray(text).isEmpty)
        #expect(text == "[]\n")
    }

    @Test func ndjsonIsOneObjectPerLine() throws {
        let text = try render(.ndjson, batches: [batch()])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines.last == "")
        let records = try JSONRecord.decodeLines(text)
        #expect(records.map { $0["frame"]?.number } == [3, 3, 4, 4])
    }

    @Test func wallClockTimeIsRFC3339WithMilliseconds() throws {
        // 2026-11-23T10:00:00Z = 1795428000 s; frame 3 starts at sample 30 = 0.3 s later.
        let text = try render(
            .ndjson, batches: [batch(clock: .wallClock(sampleRate: 100, epochOfFirstSample: 1_795_428_000.25))])
        #expect(text.hasPrefix("{\"time\":\"2026-11-23T10:00:00.550Z\","))
    }

    @Test func abandonedOutputLeavesExistingFileUntouched() throws {
        let path = temporaryPath("existing.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "previous results\n".write(toFile: path, atomically: false, encoding: .utf8)
        let output = try OutputFile(atomicallyReplacing: path)
        try output.write(Array("half a record".utf8))
        try output.flush()
        output.abandon()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous results\n")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: (path as NSString).deletingLastPathComponent
        )
        .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".sonde-tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func committedOutputReplacesTheTarget() throws {
        let path = temporaryPath("replaced.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let output = try OutputFile(atomicallyReplacing: path)
        try output.write(Array("new\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    @Test(arguments: [0, 7, 10, 99, 100, 512, -1, -12345, Int.max, Int.min])
    func integersPrintAsSwiftDoes(_ value: Int) {
        var bytes: [UInt8] = [UInt8(ascii: "x")]
        bytes.appendInteger(value)
        #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
    }

    @Test(arguments: [
        0.0, -0.0, 0.1, 1e-5, 1e16, 123456789.125, -2.5e-300, Double.leastNonzeroMagnitude,
        Double.greatestFiniteMagnitude,
    ])
    func numbersPrintInShortestRoundTripForm(_ value: Double) {
        var bytes: [UInt8] = []
        bytes.appendNumber(value)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text == value.description)
        #expect(Double(text)?.bitPattern == value.bitPattern)
    }

    /// `-o /dev/null` or a FIFO is written in place: renaming a temporary file over a
    /// device would replace it with a plain file (tested on a FIFO, never on /dev/null).
    @Test func specialFilesAreWrittenInPlace() throws {
        let path = temporaryPath("fifo")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(mkfifo(path, 0o600) == 0)
        // The reader opens the FIFO first and reads to the end, so the writer never meets a
        // FIFO without a reader (which would be SIGPIPE).
        let received = Mutex<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
            received.withLock { $0 = data }
            done.signal()
        }
        reader.start()
        let output = try OutputFile(atomicallyReplacing: path)
        try output.write(Array("through the pipe\n".utf8))
        try output.commit()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(received.withLock { $0 } == Data("through the pipe\n".utf8))
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFIFO, "still a FIFO, not replaced by a file")
        let siblings = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            .filter { $0.hasPrefix((path as NSString).lastPathComponent + ".sonde-tmp") }
        #expect(siblings.isEmpty)
    }

    @Test func missingDirectoryIsAnIOError() {
        #expect(throws: SondeError.self) { try OutputFile(atomicallyReplacing: "/nonexistent-dir/out.csv") }
    }
}
