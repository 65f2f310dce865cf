import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// The copy of a container on standard input: the bytes already read and the rest of the
/// pipe, in order; refused past its limit with one line, leaving no file behind.
@Suite struct StandardInputSpoolTests {
    /// A pipe holding `bytes` (under the pipe's 64 KiB buffer), its writing end closed.
    static func pipe(holding bytes: [UInt8]) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        try #require(Glibc.pipe(&ends) == 0)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        try #require(written == bytes.count)
        return ends[0]
    }

    @Test func copiesThePrefixAndTheRestInOrder() throws {
        let folder = try TestScratch.folder("sonde-spool")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A copy left by a run that was killed (no process 4194305: Linux's pid_max is 2^22 at most).
        let leftover = folder.appendingPathComponent(StandardInputSpool.prefix + "4194305-Ab12Cd")
        try Data([1]).write(to: leftover)
        let bytes = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let source = try Self.pipe(holding: Array(bytes[100...]))
        defer { close(source) }
        let spool = try Array(bytes[..<100]).withUnsafeBytes {
            try StandardInputSpool(prefix: $0, from: source, kind: .tdms, folder: folder.path, limit: 40_000)
        }
        #expect(spool.size == bytes.count)
        #expect(!FileManager.default.fileExists(atPath: leftover.path), "a dead run's copy is removed")
        let copied = try Data(contentsOf: URL(fileURLWithPath: spool.path))
        #expect(Array(copied) == bytes)
        #expect(spool.path.hasPrefix(folder.path + "/" + StandardInputSpool.prefix + "\(getpid())-"))
        spool.finish()
        #expect(!FileManager.default.fileExists(atPath: spool.path), "\(spool.path) is left after finish()")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func refusesPastItsLimitSayingToPassThePath() throws {
        let folder = try TestScratch.folder("sonde-spool")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.pipe(holding: [UInt8](repeating: 1, count: 5000))
        defer { close(source) }
        let error = #expect(throws: SondeError.self) {
            try [UInt8](repeating: 0, count: 10).withUnsafeBytes {
                try StandardInputSpool(prefix: $0, from: source, kind: .hdf5, folder: folder.path, limit: 4096)
            }
        }
        #expect(
            error?.message == "stdin: more than 4096 bytes of an HDF5 file on standard input; sonde copies one to a "
                + "temporary file to read it, up to 4096 bytes: pass the file by path instead of on standard input")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(StandardInputSpool.describe(StandardInputSpool.limitBytes) == "4 GiB")
    }

    @Test func aMissingFolderSaysWhereAndWhatToDo() throws {
        let source = try Self.pipe(holding: [1, 2, 3])
        defer { close(source) }
        let error = #expect(throws: SondeError.self) {
            try StandardInputSpool(
                prefix: UnsafeRawBufferPointer(start: nil, count: 0), from: source, kind: .mat,
                folder: "/nonexistent-sonde-folder")
        }
        #expect(error?.message.hasPrefix("stdin: a MATLAB file is copied to a temporary file to be read") == true)
        #expect(error?.message.hasSuffix("pass the file by path instead of on standard input") == true)
    }
}
