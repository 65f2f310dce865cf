public import SondeCore

/// One JSON object per record, keys in column order; with `lineEnding`, followed by a
/// newline (NDJSON).
public struct JSONRecordEncoder: RecordEncoder {
    public let includesFile: Bool
    public let lineEnding: Bool
    /// `"name":` prefixes, encoded once.
    private let fileKey: [UInt8]
    private let fixedKeys: [[UInt8]]
    private let valueKeys: [[UInt8]]

    public init(layout: RecordLayout, lineEnding: Bool) {
        includesFile = layout.includesFile
        self.lineEnding = lineEnding
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

    public func encode(
        fileName: String, channel: String, frame: Int, start: Int, clock: RecordClock,
        values: UnsafeBufferPointer<Double>, into buffer: inout [UInt8]
    ) {
        buffer.append(UInt8(ascii: "{"))
        if includesFile {
            buffer.append(contentsOf: fileKey)
            buffer.appendJSONString(fileName)
            buffer.append(UInt8(ascii: ","))
        }
        buffer.append(contentsOf: fixedKeys[0])
        buffer.appendTime(of: clock, start: start, quoted: true)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: fixedKeys[1])
        buffer.appendJSONString(channel)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: fixedKeys[2])
        buffer.appendInteger(frame)
        buffer.append(UInt8(ascii: ","))
        buffer.append(contentsOf: fixedKeys[3])
        buffer.appendInteger(start)
        for (column, value) in values.enumerated() {
            buffer.append(UInt8(ascii: ","))
            buffer.append(contentsOf: valueKeys[column])
            buffer.appendNumber(value)
        }
        buffer.append(UInt8(ascii: "}"))
        if lineEnding { buffer.append(10) }
    }
}
