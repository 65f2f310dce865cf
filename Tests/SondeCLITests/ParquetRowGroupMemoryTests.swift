import Foundation
import Testing
import _SondeTestSupport

/// Issue 28, finding 7: the Parquet writer's memory does not grow with its row groups.
@Suite struct ParquetRowGroupMemoryTests {
    /// 100,000 one-row row groups: the footer's metadata is kept serialized and spilled to
    /// a temporary file, so the writer's memory stays flat (this run: 286 MiB before, with
    /// the row groups held as structs, 43 MiB after; 1.13 GB with every feature).
    @Test func parquetWithOneRowPerRowGroupStaysUnder150MiB() throws {
        let root = try TestScratch.folder("sonde-groups")
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = (0..<100_015).map { Float(sin(Double($0) * 0.1)) }
        try samples.withUnsafeBytes { Data($0) }.write(to: root.appendingPathComponent("in.f32"))
        // Python's getrusage of its one child: the peak resident set of sonde alone.
        let script = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:]).returncode
            print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let result = try SondeBinary.run(
            [
                "-c", script, SondeBinary.url.path, "process", "in.f32", "--rate", "1000", "--sample-type", "f32le",
                "--window", "16", "--hop", "1", "--features", "rms", "--row-group-rows", "1", "--compression", "none",
                "-o", "out.parquet",
            ], in: root, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        let fields = result.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(fields.first == 0, "stderr: \(result.stderr)")
        let kilobytes = try #require(fields.last)
        #expect(kilobytes < 150 * 1024, "peak RSS \(kilobytes / 1024) MiB")
        let bytes = try Data(contentsOf: root.appendingPathComponent("out.parquet"))
        #expect(bytes.prefix(4) == Data("PAR1".utf8) && bytes.suffix(4) == Data("PAR1".utf8))
        // The footer's length, before the closing magic, points at a Thrift struct starting
        // with the version field (i32 field 1: 0x15).
        let length = bytes.suffix(8).prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(bytes[bytes.count - 8 - length] == 0x15)
    }
}
