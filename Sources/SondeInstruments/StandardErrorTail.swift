/// The last few kilobytes a command wrote to stderr, kept so an error can quote its last
/// line however much it wrote before.
struct StandardErrorTail {
    private var bytes: [UInt8] = []
    private let capacity: Int

    /// - Parameter capacity: bytes kept, > 0.
    init(capacity: Int = 4096) {
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk.suffix(capacity))
        if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
    }

    /// The last non-empty line, or nil when the command wrote nothing to stderr.
    var lastLine: String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }.map(String.init)
    }

    /// "; its stderr's last line: ..." or "; it wrote nothing to stderr", for messages.
    var quoted: String {
        lastLine.map { "; its stderr's last line: \($0)" } ?? "; it wrote nothing to stderr"
    }
}
