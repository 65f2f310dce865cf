public import SondeCore

public enum RecordWriters {
    /// The encoder the writer for `format` and `layout` uses, for the pipeline's workers;
    /// nil for Parquet, whose writer takes the values themselves.
    public static func encoder(format: OutputFormat, layout: RecordLayout) -> (any RecordEncoder)? {
        switch format {
        case .csv: CSVRecordEncoder(includesFile: layout.includesFile)
        case .json: JSONRecordEncoder(layout: layout, lineEnding: false)
        case .ndjson: JSONRecordEncoder(layout: layout, lineEnding: true)
        case .parquet: nil
        }
    }

    /// The writer for `format`; it owns `output` and commits it in `finish()`.
    /// - Parameter parquet: compression, row-group size and footer metadata; used by
    ///   `.parquet` only (commands reject Parquet options given with another format).
    public static func make(
        format: OutputFormat, layout: RecordLayout, output: OutputFile,
        parquet: ParquetWriterOptions = ParquetWriterOptions()
    ) throws -> any RecordWriter {
        switch format {
        case .csv: try CSVRecordWriter(layout: layout, output: output)
        case .json: JSONRecordWriter(layout: layout, output: output, style: .array)
        case .ndjson: JSONRecordWriter(layout: layout, output: output, style: .lines)
        case .parquet: try ParquetRecordWriter(layout: layout, output: output, options: parquet)
        }
    }
}
