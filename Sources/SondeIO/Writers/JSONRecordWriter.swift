public import SondeCore

/// JSON records: one array of objects (`.array`) or one object per line (`.lines`, NDJSON).
public final class JSONRecordWriter: RecordWriter {
    public enum Style: Sendable {
        case array, lines
    }

    public var encoder: (any RecordEncoder)? { recordEncoder }
    private let recordEncoder: any RecordEncoder
    private let output: OutputFile
    private let style: Style
    private var recordsWritten = 0

    public init(layout: RecordLayout, output: OutputFile, style: Style) {
        recordEncoder = JSONRecordEncoder(layout: layout, lineEnding: style == .lines)
        self.output = output
        self.style = style
    }

    public func write(_ batch: RecordBatch) throws {
        if style == .lines, output.flushPolicy == .whenFull {
            var appended = false
            try output.append(expected: batch.encodedByteCount) { appended = batch.appendEncodedRecords(to: &$0) }
            if appended {
                recordsWritten += batch.recordCount
                return
            }
        }
        try batch.forEachRecord(encoder: recordEncoder) { record in
            let separator: StaticString = recordsWritten == 0 ? "[\n" : ",\n"
            try output.append { buffer in
                if style == .array { buffer.appendASCII(separator) }
                buffer.append(contentsOf: record)
            }
            recordsWritten += 1
            try output.recordEnded()
        }
    }

    public func finish() throws {
        if style == .array {
            try output.write((recordsWritten == 0 ? "[]\n" : "\n]\n").utf8)
        }
        try output.commit()
    }
}
