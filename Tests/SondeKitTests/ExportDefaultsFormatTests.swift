import SondeCore
import SondeIO
import SondeKit
import Testing

/// `ExportDefaults.parquet(for:...)`, how `process` and `measurements export` read the
/// Parquet options, in process: taken for Parquet, refused (never ignored) for another format.
@Suite struct ExportDefaultsFormatTests {
    @Test func parquetTakesItsOptions() throws {
        let options = try ExportDefaults.parquet(
            for: .parquet, compression: ParquetCompression.none, rowGroupRows: 1000, settings: "{}")
        #expect(options.compression == ParquetCompression.none && options.rowGroupRows == 1000)
        #expect(options.keyValueMetadata.map(\.key) == ["sonde.version", "sonde.settings"])
        let defaults = try ExportDefaults.parquet(for: .csv, compression: nil, rowGroupRows: nil, settings: nil)
        #expect(defaults.compression == .zstd)
    }

    @Test func anotherFormatRefusesParquetsOptions() {
        #expect {
            _ = try ExportDefaults.parquet(for: .csv, compression: .zstd, rowGroupRows: nil, settings: nil)
        } throws: { error in
            (error as? SondeError)?.message
                == "--compression zstd: only Parquet output is compressed (the format is csv)"
        }
        #expect {
            _ = try ExportDefaults.parquet(for: .ndjson, compression: nil, rowGroupRows: 10, settings: nil)
        } throws: { error in
            (error as? SondeError)?.message
                == "--row-group-rows 10: only Parquet output has row groups (the format is ndjson)"
        }
    }
}
