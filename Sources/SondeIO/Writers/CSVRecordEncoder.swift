public import SondeCore

/// One RFC 4180 line per record: `[file,]time,channel,frame,start,values...`.
public struct CSVRecordEncoder: RecordEncoder {
    public let includesFile: Bool

    public init(includesFile: Bool) {
        self.includesFile = includesFile
    }

    public func fields(fileName: String, channel: String) -> RecordFields {
        var beforeTime: [UInt8] = []
        if includesFile {
            beforeTime.appendCSVField(fileName)
            beforeTime.append(UInt8(ascii: ","))
        }
        var afterTime: [UInt8] = [UInt8(ascii: ",")]
        afterTime.appendCSVField(channel)
        afterTime.append(UInt8(ascii: ","))
        return RecordFields(beforeTime: beforeTime, afterTime: afterTime)
    }

    public func encode(
        _ fields: RecordFields, frame: Int, start: Int, clock: RecordClock, values: UnsafeBufferPointer<Double>,
        into buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: fields.beforeTime)
        buffer.appendTime(of: clock, start: start, quoted: false)
        buffer.append(contentsOf: fields.afterTime)
        buffer.appendInteger(frame)
        buffer.append(UInt8(ascii: ","))
        buffer.appendInteger(start)
        buffer.appendNumbers(values, separatedBy: UInt8(ascii: ","))
        buffer.append(10)
    }
}
