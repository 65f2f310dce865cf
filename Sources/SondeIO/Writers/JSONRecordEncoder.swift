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

    public func fields(fileName: String, channel: String) -> RecordFields {
        var beforeTime: [UInt8] = [UInt8(ascii: "{")]
        if includesFile {
            beforeTime.append(contentsOf: fileKey)
            beforeTime.appendJSONString(fileName)
            beforeTime.append(UInt8(ascii: ","))
        }
        beforeTime.append(contentsOf: fixedKeys[0])
        var afterTime: [UInt8] = [UInt8(ascii: ",")]
        afterTime.append(contentsOf: fixedKeys[1])
        afterTime.appendJSONString(channel)
        afterTime.append(UInt8(ascii: ","))
        afterTime.append(contentsOf: fixedKeys[2])
        return RecordFields(beforeTime: beforeTime, afterTime: afterTime)
    }

    public func encode(
        _ fields: RecordFields, frame: Int, start: Int, clock: RecordClock, values: UnsafeBufferPointer<Double>,
        into buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: fields.beforeTime)
        buffer.appendTime(of: clock, start: start, quoted: true)
        buffer.append(contentsOf: fields.afterTime)
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
