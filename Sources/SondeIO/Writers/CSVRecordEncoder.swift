public import SondeCore

/// One RFC 4180 line per record: `[file,]time,channel,frame,start,values...`.
public struct CSVRecordEncoder: RecordEncoder {
    public let includesFile: Bool

    public init(includesFile: Bool) {
        self.includesFile = includesFile
    }

    public func encode(
        fileName: String, channel: String, frame: Int, start: Int, clock: RecordClock,
        values: UnsafeBufferPointer<Double>, into buffer: inout [UInt8]
    ) {
        if includesFile {
            buffer.appendCSVField(fileName)
            buffer.append(UInt8(ascii: ","))
        }
        buffer.appendTime(of: clock, start: start, quoted: false)
        buffer.append(UInt8(ascii: ","))
        buffer.appendCSVField(channel)
        buffer.append(UInt8(ascii: ","))
        buffer.appendInteger(frame)
        buffer.append(UInt8(ascii: ","))
        buffer.appendInteger(start)
        buffer.appendNumbers(values, separatedBy: UInt8(ascii: ","))
        buffer.append(10)
    }
}
