import Foundation
import Testing
import _SondeTestSupport

/// Parquet options are refused, in one line, where they would be ignored or are out of
/// range; the values themselves are checked by `Tests/Parquet/check_parquet.py`.
@Suite struct ParquetOptionTests {
    private func scratch() throws -> URL {
        try TestScratch.folder("sonde-parquet")
    }

    static let refusals: [([String], String, String)] = [
        (
            ["--compression", "zstd"], "out.csv",
            "--compression zstd: only Parquet output is compressed (the format is csv)"
        ),
        (
            ["--compression", "none", "--format", "ndjson"], "out.x",
            "--compression none: only Parquet output is compressed (the format is ndjson)"
        ),
        (
            ["--row-group-rows", "5"], "out.json",
            "--row-group-rows 5: only Parquet output has row groups (the format is json)"
        ),
        (["--row-group-rows", "0"], "out.parquet", "--row-group-rows 0: expected 1...16777216"),
    ]

    @Test(arguments: refusals)
    func refusedInOneLineWithoutOutput(options: [String], output: String, message: String) throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent(output).path
        let result = try SondeBinary.run(["process", "inputs/accel_time_1k.csv", "-o", target] + options)
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(message))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func theExtensionChoosesParquet() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("out.parquet")
        let result = try SondeBinary.run(["process", "inputs/accel_time_1k.csv", "--quiet", "-o", target.path])
        #expect(result.status == 0)
        let bytes = try [UInt8](Data(contentsOf: target))
        // PAR1, pages, footer, its 4-byte length, PAR1.
        #expect(bytes.count > 12)
        #expect(Array(bytes.prefix(4)) == Array("PAR1".utf8))
        #expect(Array(bytes.suffix(4)) == Array("PAR1".utf8))
    }
}
