import SondeCore
public import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

extension ExportDefaults {
    /// The writer options for `format`, with `sonde.version` and (when given)
    /// `sonde.settings` in the footer: what `process` and `measurements export` write with.
    /// - Parameters:
    ///   - compression, rowGroupRows: `--compression` and `--row-group-rows`, Parquet's only.
    ///   - toStandardOutput: whether the records go to standard output, which must then not
    ///     be a terminal for Parquet (binary bytes would garble it).
    /// - Throws: `SondeError(.invalidArgument)` when a Parquet option is given for another
    ///   format (no option is silently ignored), or Parquet would go to a terminal.
    public static func parquet(
        for format: OutputFormat, compression: ParquetCompression?, rowGroupRows: Int?, settings: String?,
        toStandardOutput: Bool = false
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
        return parquet(compression: compression, rowGroupRows: rowGroupRows, settings: settings)
    }
}
