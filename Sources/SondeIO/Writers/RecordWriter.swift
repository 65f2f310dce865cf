public import SondeCore

/// Turns record batches into one of the formats of FEATURES.md section 6.
public protocol RecordWriter: AnyObject {
    /// How this writer turns one record into bytes; the pipeline's workers use it to
    /// encode in parallel. Nil for a columnar format (Parquet), which takes values.
    var encoder: (any RecordEncoder)? { get }

    /// Appends every record of `batch`, in order.
    func write(_ batch: RecordBatch) throws
    /// Writes what closes the format (JSON's `]`) and commits the output.
    func finish() throws
}

/// The columns every record has: `[file,] time, channel, frame, start`, then `valueColumns`.
public struct RecordLayout: Sendable, Equatable {
    /// Feature and band column names, in order.
    public var valueColumns: [String]
    /// Whether a `file` column comes first (runs with several inputs).
    public var includesFile: Bool

    public init(valueColumns: [String], includesFile: Bool) {
        self.valueColumns = valueColumns
        self.includesFile = includesFile
    }

    public var allColumns: [String] {
        (includesFile ? ["file"] : []) + ["time", "channel", "frame", "start"] + valueColumns
    }
}

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
