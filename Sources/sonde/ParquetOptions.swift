import ArgumentParser
import SondeIO
import SondeKit

/// The options that only `--format parquet` uses; shared by `process` and `measurements export`.
struct ParquetOptions: ParsableArguments {
    @Option(help: "Parquet page compression: none or zstd (default zstd). Parquet only.")
    var compression: ParquetCompression?

    @Option(
        help: ArgumentHelp(
            "Records per Parquet row group (default 65536): bounds memory; readers skip row groups by their statistics. Parquet only.",
            valueName: "N")
    )
    var rowGroupRows: Int?

    /// The writer options for `format` (`ExportDefaults.parquet(for:...)`, which refuses
    /// these options for another format and Parquet to a terminal).
    func writerOptions(
        format: OutputFormat, settings: String?, toStandardOutput: Bool = false
    ) throws -> ParquetWriterOptions {
        try ExportDefaults.parquet(
            for: format, compression: compression, rowGroupRows: rowGroupRows, settings: settings,
            toStandardOutput: toStandardOutput)
    }
}
