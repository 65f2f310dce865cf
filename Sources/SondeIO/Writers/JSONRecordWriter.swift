public import SondeCore

/// JSON records: one array of objects (`.array`) or one object per line (`.lines`, NDJSON).
public final class JSONRecordWriter: RecordWriter {
    public enum Style: Sendable {
        case array, lines
    }

    private let output: OutputFile
    private let style: Style
    private let includesFile: Bool
    /// `"name":` prefixes, encoded once.
    private let fileKey: [UInt8]
    private let fixedKeys: [[UInt8]]
    private let valueKeys: [[UInt8]]
    private var recordsWritten = 0

    public init(layout: RecordLayout, output: OutputFile, style: Style) {
        self.output = output
        self.style = style
        includesFile = layout.includesFile
        func key(_ name: String) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.appendJSONString(name)
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
        fileKey = key("file")
        fixedKeys = ["time", "channel", "frame", "start"].map(key)
        valueKeys = layout.valueColumns.map(key)
    }

    public func write(_ batch: RecordBatch) throws {
        let channels = batch.channelNames.count
        for frameOffset in 0..<batch.frameCount {
            let frame = batch.firstFrame + frameOffset
            let start = frame * batch.hop
            for channel in 0..<channels {
                let base = (frameOffset * channels + channel) * batch.columnCount
                let separator = recordsWritten == 0 ? "[\n" : ",\n"
                try output.append { buffer in
                    if style == .array { buffer.append(contentsOf: separator.utf8) }
                    buffer.append(UInt8(ascii: "{"))
                    if includesFile {
                        buffer.append(contentsOf: fileKey)
                        buffer.appendJSONString(batch.fileName)
                        buffer.append(UInt8(ascii: ","))
                    }
                    buffer.append(contentsOf: fixedKeys[0])
                    buffer.appendTime(of: batch.clock, start: start, quoted: true)
                    buffer.append(UInt8(ascii: ","))
                    buffer.append(contentsOf: fixedKeys[1])
                    buffer.appendJSONString(batch.channelNames[channel])
                    buffer.append(UInt8(ascii: ","))
                    buffer.append(contentsOf: fixedKeys[2])
                    buffer.appendInteger(frame)
                    buffer.append(UInt8(ascii: ","))
                    buffer.append(contentsOf: fixedKeys[3])
                    buffer.appendInteger(start)
                    for column in 0..<batch.columnCount {
                        buffer.append(UInt8(ascii: ","))
                        buffer.append(contentsOf: valueKeys[column])
                        buffer.appendNumber(batch.values[base + column])
                    }
                    buffer.append(UInt8(ascii: "}"))
                    if style == .lines { buffer.append(10) }
                }
                recordsWritten += 1
                try output.recordEnded()
            }
        }
    }

    public func finish() throws {
        if style == .array {
            try output.write((recordsWritten == 0 ? "[]\n" : "\n]\n").utf8)
        }
        try output.commit()
    }
}
