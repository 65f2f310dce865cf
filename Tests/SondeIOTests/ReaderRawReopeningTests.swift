import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

/// Issue 30: a raw file opened by its path can be opened again at any frame, so the graph
/// can read its segments side by side; a changed file is refused, a pipe never offered.
@Suite struct ReaderRawReopeningTests {
    /// 3 channels of i16, 1,001 frames and half a frame.
    let values = (0..<(3 * 1001 + 1)).map { Int16(truncatingIfNeeded: $0 &* 7919) }

    @Test func aFileOpenedAgainAtAFrameGivesTheSamplesFromThere() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let path = try ReaderTest.makeFile(ReaderTest.littleEndianBytes(values), named: "a.i16", in: directory)
        let options = SampleSourceOptions(sampleRate: 8000, channels: 3)
        let whole = try ReaderTest.readAll(try SampleSources.open(path: path, options: options))
        let reopening = try #require(try SampleSources.open(path: path, options: options).reopening)
        #expect(reopening.frameCount == 1001)
        for frame in [0, 1, 500, 1000, 1001] {
            let source = try reopening.open(frame)
            #expect(source.expectedFrames == 1001 - frame)
            #expect(try ReaderTest.readAll(source, bufferFrames: 64) == Array(whole[(3 * frame)...]))
            // Only the read that reaches the file's end sees the partial last frame.
            #expect(source.notes.count == 1)
        }
    }

    @Test func aBadSampleIsNamedByItsFrameInTheFile() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        var floats = [Float](repeating: 0.5, count: 2 * 100)
        floats[2 * 70 + 1] = .nan
        let path = try ReaderTest.makeFile(
            ReaderTest.littleEndianBytes(floats.map(\.bitPattern)), named: "a.f32", in: directory)
        let reopening = try #require(
            try SampleSources.open(path: path, options: SampleSourceOptions(sampleRate: 1, channels: 2)).reopening)
        let error = #expect(throws: SondeError.self) { try ReaderTest.readAll(try reopening.open(60)) }
        #expect(error?.message.contains("frame 70, channel ch1") == true)
    }

    @Test func aReplacedOrShortenedFileIsRefused() throws {
        let directory = try ReaderTest.makeDirectory()
        defer { ReaderTest.remove(directory) }
        let bytes = ReaderTest.littleEndianBytes(values)
        let path = try ReaderTest.makeFile(bytes, named: "a.i16", in: directory)
        let options = SampleSourceOptions(sampleRate: 8000, channels: 3)
        // Open, as the graph's first segment is while the others open: its inode stays taken.
        let original = try SampleSources.open(path: path, options: options)
        let reopening = try #require(original.reopening)
        try FileManager.default.removeItem(atPath: path)
        _ = try ReaderTest.makeFile(bytes, named: "a.i16", in: directory)
        let replaced = #expect(throws: SondeError.self) { try reopening.open(10) }
        #expect(replaced?.message.contains("replaced or cut short") == true)
        withExtendedLifetime(original) {}

        let again = try #require(try SampleSources.open(path: path, options: options).reopening)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 6 * 10)
        try handle.close()
        let shortened = #expect(throws: SondeError.self) { try again.open(500) }
        #expect(shortened?.message.contains("replaced or cut short") == true)
    }

    @Test func aPipeCannotBeOpenedAgain() throws {
        let input = try ReaderTest.pipeInput(ReaderTest.littleEndianBytes(values))
        let source = try SampleSources.open(
            input, kind: .raw(.i16le), options: SampleSourceOptions(sampleRate: 8000, channels: 3))
        #expect(source.reopening == nil)
    }
}
