/// The flags of a segment's table of contents (its lead-in's second field).
struct TDMSTableOfContents: OptionSet, Sendable {
    let rawValue: UInt32

    static let metaData = TDMSTableOfContents(rawValue: 1 << 1)
    static let newObjectList = TDMSTableOfContents(rawValue: 1 << 2)
    static let rawData = TDMSTableOfContents(rawValue: 1 << 3)
    static let interleavedData = TDMSTableOfContents(rawValue: 1 << 5)
    static let bigEndian = TDMSTableOfContents(rawValue: 1 << 6)
    static let daqmxRawData = TDMSTableOfContents(rawValue: 1 << 7)
}

/// The 28 bytes that open every segment: "TDSm", the table of contents, the version, the
/// next segment's offset and the raw data's offset (both counted from the lead-in's end).
///
/// The table of contents is always little-endian; the three fields after it follow
/// `kTocBigEndian`, as npTDMS reads them.
struct TDMSLeadIn: Sendable {
    static let size = 28
    /// The next-segment offset of a segment whose writer stopped before finishing it.
    static let lengthUnknown = UInt64.max

    let tableOfContents: TDMSTableOfContents
    let version: Int32
    let nextSegmentOffset: UInt64
    let rawDataOffset: UInt64

    /// Nil when the bytes do not start with the tag "TDSm".
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size, bytes[0] == 0x54, bytes[1] == 0x44, bytes[2] == 0x53, bytes[3] == 0x6D
        else { return nil }
        tableOfContents = TDMSTableOfContents(
            rawValue: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
        let big = tableOfContents.contains(.bigEndian)
        let version = bytes.loadUnaligned(fromByteOffset: 8, as: Int32.self)
        let next = bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self)
        let raw = bytes.loadUnaligned(fromByteOffset: 20, as: UInt64.self)
        self.version = big ? Int32(bigEndian: version) : Int32(littleEndian: version)
        nextSegmentOffset = big ? UInt64(bigEndian: next) : UInt64(littleEndian: next)
        rawDataOffset = big ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }
}
