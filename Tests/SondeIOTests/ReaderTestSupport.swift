import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers shared by the reader tests: temporary files, pipes, reading a source dry.
enum ReaderTest {
    /// A fresh directory for one test (under `TestScratch`), removed by the caller's `defer`.
    static func makeDirectory() throws -> URL {
        try TestScratch.folder("sonde-reader")
    }

    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` in a new temporary directory; returns the path.
    static func makeFile(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func makeFile(_ text: String, named name: String, in directory: URL) throws -> String {
        try makeFile(Array(text.utf8), named: name, in: directory)
    }

    /// Reads a source to its end in buffers of `bufferFrames` frames.
    static func readAll(_ source: any SampleSource, bufferFrames: Int = 7) throws -> [Double] {
        let channels = source.format.channelCount
        var buffer = [Double](repeating: .nan, count: bufferFrames * channels)
        var samples: [Double] = []
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if frames == 0 { break }
            samples += buffer[0..<frames * channels]
        }
        // A finished source stays finished.
        #expect(try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) } == 0)
        return samples
    }

    /// Opens CSV text from a temporary file with a small chunk size.
    static func openCSV(
        _ text: String, chunkSize: Int = ChunkedInput.defaultChunkSize,
        options: SampleSourceOptions = SampleSourceOptions(), name: String = "data.csv"
    ) throws -> any SampleSource {
        let directory = try makeDirectory()
        defer { remove(directory) }
        let path = try makeFile(text, named: name, in: directory)
        return try SampleSources.open(
            try OpenedInput.open(path: path), kind: .csv, options: options, chunkSize: chunkSize)
    }

    /// The error thrown by `body`, which must throw a `SondeError`.
    static func error(
        _ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        -> SondeError?
    {
        do {
            try body()
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return nil
        } catch let error as SondeError {
            return error
        } catch {
            Issue.record("expected a SondeError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// A pipe whose read end is an input named `stdin`, holding `bytes` (less than a pipe
    /// buffer, 64 KiB) and then closed for writing.
    static func pipeInput(_ bytes: [UInt8]) throws -> OpenedInput {
        precondition(bytes.count < 60_000)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            #expect(count > 0)
            written += max(count, 0)
        }
        close(ends[1])
        return OpenedInput(
            descriptor: ends[0], name: OpenedInput.standardInputName, isRegularFile: false, size: nil,
            ownsDescriptor: true)
    }

    static func littleEndianBytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    }
}
