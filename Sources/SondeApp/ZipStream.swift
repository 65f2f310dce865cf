import Foundation

/// A ZIP archive written front to back, so a download can start before its entries exist
/// (issue 44: `export.zip` of 30 ten-minute measurements sent its first byte after 32 s,
/// built whole in memory). Each entry's local header says "sizes follow" (flag bit 3);
/// its data descriptor after the data gives the CRC-32 and sizes; the central directory
/// closes the archive. ZIP64 is not written: an entry or archive past 4 GiB is refused.
struct ZipStream {
    private struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var compressedSize: UInt32
        var size: UInt32
        var offset: UInt32
    }

    private var entries: [Entry] = []
    private var open: (name: [UInt8], offset: UInt32)?
    /// Bytes handed out so far: the next header's offset.
    private(set) var written: UInt64 = 0
    /// MS-DOS time and date (the format's), of every entry: when the archive was made.
    private let time: UInt16
    private let date: UInt16

    static let deflate: UInt16 = 8
    static let sizesFollow: UInt16 = 1 << 3
    static let utf8Names: UInt16 = 1 << 11

    init(modified: Date = Date()) {
        let parts = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC") ?? .current, from: modified)
        let year = max(1980, min(2107, parts.year ?? 1980))
        time = UInt16((parts.hour ?? 0) << 11 | (parts.minute ?? 0) << 5 | (parts.second ?? 0) / 2)
        date = UInt16((year - 1980) << 9 | (parts.month ?? 1) << 5 | (parts.day ?? 1))
    }

    /// The local header of an entry whose deflated data comes next.
    /// - Throws: `ZipStreamError` when the archive already passed 4 GiB.
    mutating func begin(_ name: String) throws(ZipStreamError) -> [UInt8] {
        guard written <= UInt64(UInt32.max) else { throw .tooLarge }
        let nameBytes = Array(name.utf8)
        open = (nameBytes, UInt32(written))
        var bytes: [UInt8] = []
        Self.append32(0x0403_4B50, to: &bytes)
        Self.append16(20, to: &bytes)  // version needed: 2.0 (deflate)
        Self.append16(Self.sizesFollow | Self.utf8Names, to: &bytes)
        Self.append16(Self.deflate, to: &bytes)
        Self.append16(time, to: &bytes)
        Self.append16(date, to: &bytes)
        for _ in 0..<3 { Self.append32(0, to: &bytes) }  // CRC and sizes: in the descriptor
        Self.append16(UInt16(nameBytes.count), to: &bytes)
        Self.append16(0, to: &bytes)
        bytes += nameBytes
        written += UInt64(bytes.count)
        return bytes
    }

    /// The data descriptor after an entry's `compressedSize` bytes of deflated data.
    mutating func end(crc: UInt32, compressedSize: UInt64, size: UInt64) throws(ZipStreamError) -> [UInt8] {
        guard let open else { throw .noOpenEntry }
        guard compressedSize <= UInt64(UInt32.max), size <= UInt64(UInt32.max) else { throw .tooLarge }
        written += compressedSize
        var bytes: [UInt8] = []
        Self.append32(0x0807_4B50, to: &bytes)
        Self.append32(crc, to: &bytes)
        Self.append32(UInt32(compressedSize), to: &bytes)
        Self.append32(UInt32(size), to: &bytes)
        written += UInt64(bytes.count)
        entries.append(
            Entry(
                name: open.name, crc: crc, compressedSize: UInt32(compressedSize), size: UInt32(size),
                offset: open.offset))
        self.open = nil
        return bytes
    }

    /// The central directory and its end record: the archive's last bytes.
    mutating func finish() throws(ZipStreamError) -> [UInt8] {
        guard open == nil else { throw .noOpenEntry }
        guard written <= UInt64(UInt32.max), entries.count < Int(UInt16.max) else { throw .tooLarge }
        let start = UInt32(written)
        var bytes: [UInt8] = []
        for entry in entries {
            Self.append32(0x0201_4B50, to: &bytes)
            Self.append16(20, to: &bytes)  // made by: 2.0
            Self.append16(20, to: &bytes)
            Self.append16(Self.sizesFollow | Self.utf8Names, to: &bytes)
            Self.append16(Self.deflate, to: &bytes)
            Self.append16(time, to: &bytes)
            Self.append16(date, to: &bytes)
            Self.append32(entry.crc, to: &bytes)
            Self.append32(entry.compressedSize, to: &bytes)
            Self.append32(entry.size, to: &bytes)
            Self.append16(UInt16(entry.name.count), to: &bytes)
            for _ in 0..<4 { Self.append16(0, to: &bytes) }  // extra, comment, disk, internal attributes
            Self.append32(0, to: &bytes)  // external attributes
            Self.append32(entry.offset, to: &bytes)
            bytes += entry.name
        }
        let size = UInt32(bytes.count)
        Self.append32(0x0605_4B50, to: &bytes)
        Self.append16(0, to: &bytes)
        Self.append16(0, to: &bytes)
        Self.append16(UInt16(entries.count), to: &bytes)
        Self.append16(UInt16(entries.count), to: &bytes)
        Self.append32(size, to: &bytes)
        Self.append32(start, to: &bytes)
        Self.append16(0, to: &bytes)
        written += UInt64(bytes.count)
        return bytes
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}

/// Why an archive cannot go on.
enum ZipStreamError: Error, CustomStringConvertible {
    /// Past 4 GiB: ZIP64 is not written.
    case tooLarge
    /// `end` or `finish` out of turn (a programming error).
    case noOpenEntry

    var description: String {
        switch self {
        case .tooLarge: "the archive passed 4 GiB; export the measurements one by one"
        case .noOpenEntry: "the archive's entries were written out of turn"
        }
    }
}
