import Dispatch
import Foundation
import Hummingbird
import NIOCore
import SondeCore
import ZIPFoundation

/// Downloads sent from a private temporary file in 64 KiB chunks, never built whole in
/// memory (issue 44: 20 users downloading a 10-minute measurement had peaked at 364 MB).
/// A download that fails after its first byte ends the connection without the last
/// chunk, so the browser shows a failed download, never a short file that looks whole.
enum ExportDownload {
    static let chunkSize = 1 << 16

    /// A body sending the file at `path`, whose folder is removed once it is sent (or not).
    static func body(file path: String, folder: ScratchDirectory) throws -> ResponseBody {
        let size = try Self.size(of: path)
        return ResponseBody(contentLength: size) { writer in
            defer { folder.remove() }
            try await send(file: path, to: &writer)
            try await writer.finish(nil)
        }
    }

    /// Writes the file at `path` to `writer`, chunk by chunk.
    static func send(file path: String, to writer: inout any ResponseBodyWriter) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SondeError(.io, "cannot read the export back from \(path)")
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            try await writer.write(ByteBuffer(bytes: chunk))
        }
    }

    static func size(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Deflates the file at `source` into `destination` (raw deflate, as a ZIP entry holds
    /// it), on a thread of its own: the cooperative threads stay free for the pages.
    /// - Returns: the CRC-32 of the source's bytes, the deflated size and the source's size.
    static func deflate(
        _ source: String, into destination: String
    ) async throws -> (
        crc: UInt32, compressedSize: UInt64, size: UInt64
    ) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try deflateNow(source, into: destination) })
            }
        }
    }

    private static func deflateNow(
        _ source: String, into destination: String
    ) throws -> (
        crc: UInt32, compressedSize: UInt64, size: UInt64
    ) {
        let size = try Self.size(of: source)
        guard let input = FileHandle(forReadingAtPath: source),
            FileManager.default.createFile(atPath: destination, contents: nil),
            let output = FileHandle(forWritingAtPath: destination)
        else { throw SondeError(.io, "cannot compress the export in \(destination)") }
        defer {
            try? input.close()
            try? output.close()
        }
        var compressed: UInt64 = 0
        let crc = try Data.compress(
            size: Int64(size), bufferSize: chunkSize,
            provider: { _, count in try input.read(upToCount: count) ?? Data() },
            consumer: { data in
                try output.write(contentsOf: data)
                compressed += UInt64(data.count)
            })
        return (crc, compressed, UInt64(size))
    }
}
