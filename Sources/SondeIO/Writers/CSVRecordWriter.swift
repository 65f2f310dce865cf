public import SondeCore

/// RFC 4180 records with a header row, one record per line.
public final class CSVRecordWriter: RecordWriter {
    private let layout: RecordLayout
    private let output: OutputFile

    /// Writes the header row at once, so a run with zero records still names its columns.
    public init(layout: RecordLayout, output: OutputFile) throws {
        self.layout = layout
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
        let channels = batch.channelNames.count
        for frameOffset in 0..<batch.frameCount {
            let frame = batch.firstFrame + frameOffset
            let start = frame * batch.hop
            for channel in 0..<channels {
                let base = (frameOffset * channels + channel) * batch.columnCount
                try output.append { buffer in
                    if layout.includesFile {
                        buffer.appendCSVField(batch.fileName)
                        buffer.append(UInt8(ascii: ","))
                    }
                    buffer.appendTime(of: batch.clock, start: start, quoted: false)
                    buffer.append(UInt8(ascii: ","))
                    buffer.appendCSVField(batch.channelNames[channel])
                    buffer.append(UInt8(ascii: ","))
                    buffer.appendInteger(frame)
                    buffer.append(UInt8(ascii: ","))
                    buffer.appendInteger(start)
                    for column in 0..<batch.columnCount {
                        buffer.append(UInt8(ascii: ","))
                        buffer.appendNumber(batch.values[base + column])
                    }
                    buffer.append(10)
                }
                try output.recordEnded()
            }
        }
    }

    public func finish() throws {
        try output.commit()
    }
}
