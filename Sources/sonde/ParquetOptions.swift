import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondeIO
import SondePipeline

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

    /// The `sonde.version` written into Parquet footers and `created_by`.
    static var version: String { SondeVersion.full }

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
        return Self.writerOptions(compression: compression, rowGroupRows: rowGroupRows, settings: settings)
    }

    /// The writer options of these values, or the defaults (`sonde serve`'s downloads).
    static func writerOptions(
        compression: ParquetCompression? = nil, rowGroupRows: Int? = nil, settings: String? = nil
    ) -> ParquetWriterOptions {
        ParquetWriterOptions(
            compression: compression ?? .zstd,
            rowGroupRows: rowGroupRows ?? ParquetWriterOptions.defaultRowGroupRows,
            keyValueMetadata: [("sonde.version", Self.version)] + (settings.map { [("sonde.settings", $0)] } ?? []),
            createdBy: "sonde version \(Self.version)"
        )
    }

    /// `settings` as the JSON object of `sonde.settings` (`PipelineSettings.json`).
    static func settingsJSON(_ settings: PipelineSettings) -> String {
        settings.json(version: version).text
    }
}
