/// Reads a segment's metadata block field by field, in the segment's byte order.
struct TDMSMetadataCursor {
    /// Why a field could not be read; the parser adds the file, the segment and the offset.
    struct Overrun: Error {
        /// The field's position within the block.
        let position: Int
        let needed: Int
        let what: String
    }

    let bytes: [UInt8]
    let bigEndian: Bool
    private(set) var position = 0

    init(_ bytes: [UInt8], bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    mutating func take(_ count: Int, _ what: String) throws(Overrun) -> Range<Int> {
        guard count >= 0, count <= bytes.count - position else {
            throw Overrun(position: position, needed: count, what: what)
        }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func load<T: FixedWidthInteger>(_: T.Type, _ what: String) throws(Overrun) -> T {
        let range = try take(MemoryLayout<T>.size, what)
        let raw = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: range.lowerBound, as: T.self) }
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    mutating func uint32(_ what: String) throws(Overrun) -> UInt32 { try load(UInt32.self, what) }

    mutating func uint64(_ what: String) throws(Overrun) -> UInt64 { try load(UInt64.self, what) }

    /// A length-prefixed UTF-8 string (invalid sequences repaired, as Python's decoder would refuse).
    mutating func string(_ what: String) throws(Overrun) -> String {
        let length = try uint32(what + "'s length")
        let range = try take(Int(length), what)
        return String(decoding: bytes[range], as: UTF8.self)
    }
}
