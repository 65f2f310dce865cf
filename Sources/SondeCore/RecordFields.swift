/// A record's fixed text, as an encoder's `fields(fileName:channel:)` made it: the bytes
/// before its time and those between its time and its frame number.
public struct RecordFields: Sendable {
    public var beforeTime: [UInt8]
    public var afterTime: [UInt8]

    public init(beforeTime: [UInt8], afterTime: [UInt8]) {
        self.beforeTime = beforeTime
        self.afterTime = afterTime
    }
}
