public import SondeCore

/// RFC 4180 records with a header row, one record per line.
public final class CSVRecordWriter: RecordWriter {
    public var encoder: (any RecordEncoder)? { recordEncoder }
    private let recordEncoder: any RecordEncoder
    private let output: OutputFile

    /// Writes the header row at once, so a run with zero records still names its columns.
    public init(layout: RecordLayout, output: OutputFile) throws {
        recordEncoder = CSVRecordEncoder(includesFile: layout.includesFile)
        self.output = output
        try output.append { buffer in
            for (index, name) in layout.allColumns.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                buffer.appendCSVField(name)
            }
            buffer.append(10)
        }
    }

    public func write(_ batch: RecordBatch) throws {
        if output.flushPolicy == .whenFull {
            var appended = false
            try output.append(expected: batch.encodedByteCount) { appended = batch.appendEncodedRecords(to: &$0) }
            if appended { return }
        }
        try batch.forEachRecord(encoder: recordEncoder) { record in
            try output.append { $0.append(contentsOf: record) }
            try output.recordEnded()
        }
    }

    public func finish() throws {
        try output.commit()
    }
}
