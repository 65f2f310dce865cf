import ArgumentParser
import Foundation
import SondeCore
import SondeIO
import SondeKit

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The writer options for `format`, with `sonde.version` and (when given) `sonde.settings`
    /// in the footer.
    /// - Parameter toStandardOutput: whether the records go to standard output, which must
    ///   then not be a terminal for Parquet (binary bytes would garble it).
    /// - Throws: `SondeError(.invalidArgument)` when a Parquet option is given for another
    ///   format (no option is silently ignored), or Parquet would go to a terminal.
    func writerOptions(
        format: OutputFormat, settings: String?, toStandardOutput: Bool = false
    ) throws -> ParquetWriterOptions {
        if format == .parquet && toStandardOutput && isatty(STDOUT_FILENO) == 1 {
            throw SondeError(
                .invalidArgument,
                "--format parquet: binary output would go to the terminal; use -o FILE.parquet or a pipe")
        }
        if format != .parquet {
            if let compression {
                throw SondeError(
                    .invalidArgument,
                    "--compression \(compression.rawValue): only Parquet output is compressed (the format is \(format.rawValue))"
                )
            }
            if let rowGroupRows {
                throw SondeError(
                    .invalidArgument,
                    "--row-group-rows \(rowGroupRows): only Parquet output has row groups (the format is \(format.rawValue))"
                )
            }
        }
        return ExportDefaults.parquet(compression: compression, rowGroupRows: rowGroupRows, settings: settings)
    }
}
