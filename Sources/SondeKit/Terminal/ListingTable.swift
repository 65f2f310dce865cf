import SondeCore
public import SondeMeasurements

/// `sonde measurements list`'s table as bytes: every cell written once into blocks of bytes,
/// then the lines aligned from them. Why not strings joined per line: a lab's 10,000
/// measurements took a third of the listing's time in string building (perf); this is a
/// tenth of that. The text is what `MeasurementText.aligned` gives: cells padded to their
/// column's width in characters, two spaces apart, the last unpadded, no trailing spaces.
public struct ListingTable {
    public static let header = ["ID", "RECORDED (UTC)", "DEVICE", "WINDOWS", "MEAN", "COMMENT"]

    /// Cell bytes, row after row, in blocks that are never moved: one array grown by
    /// doubling copied the table at each step and faulted in twice its pages, 3 ms of a
    /// 10,000-line list. A row is never split between blocks.
    private var blocks: [[UInt8]] = []
    /// The block rows are written to, moved to `blocks` when it is nearly full.
    private var current: [UInt8] = []
    /// Each cell's length in bytes and width in characters, row after row (a stored text is
    /// under PostgreSQL's and SQLite's 1 GB).
    private var cells: [(length: UInt32, width: UInt32)] = []
    /// The index in `cells` at which each of `blocks` ends (`current` holds the cells after
    /// the last).
    private var blockEnds: [Int] = []

    private static let blockSize = 1 << 16
    /// A row starts a new block when fewer bytes than this are left (a longer row only
    /// grows its block).
    private static let rowRoom = 1 << 10

    /// Lines below the header.
    public var rowCount: Int { cells.count / Self.header.count - 1 }

    public init() {
        current.reserveCapacity(Self.blockSize)
        for name in Self.header { appendCell(name) }
    }

    /// Adds a line for each listing, as a store's batches arrive.
    public mutating func append(_ listings: [MeasurementListing]) {
        for listing in listings {
            if current.capacity - current.count < Self.rowRoom { startBlock() }
            appendCell(String(listing.id.rawValue))
            appendCell(UTCTimestamp.rfc3339(epochSeconds: listing.recordedAt))
            appendCell(listing.deviceID)
            appendCell(String(listing.frameCount))
            appendMainValues(listing)
            // A line break in a comment would break the table's line.
            appendCell(
                listing.comment.utf8.contains(0x0A)
                    ? String(decoding: listing.comment.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
                    : listing.comment)
        }
    }

    /// The aligned lines, each ending in a line feed, handed to `emit` 64 KiB at a time (the
    /// whole text at once was a megabyte more to fault in, and a copy more to write).
    public func write(_ emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let columns = Self.header.count
        var widths = [Int](repeating: 0, count: columns)
        for (index, cell) in cells.enumerated() {
            widths[index % columns] = max(widths[index % columns], Int(cell.width))
        }
        let chunk = 1 << 16
        var output: [UInt8] = []
        output.reserveCapacity(chunk + 4096)
        var firstCell = 0
        for (block, endCell) in zip(blocks + [current], blockEnds + [cells.count]) {
            try block.withUnsafeBufferPointer { bytes in
                var start = 0
                for index in firstCell..<endCell {
                    let cell = cells[index]
                    let column = index % columns
                    let end = start + Int(cell.length)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    start = end
                    if column < columns - 1 {
                        output.append(contentsOf: repeatElement(0x20, count: widths[column] - Int(cell.width) + 2))
                    } else {
                        while output.last == 0x20 { output.removeLast() }
                        output.append(0x0A)
                        if output.count >= chunk {
                            try output.withUnsafeBytes(emit)
                            output.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
            firstCell = endCell
        }
        if !output.isEmpty { try output.withUnsafeBytes(emit) }
    }

    /// Puts `current` away and begins a new block.
    private mutating func startBlock() {
        blocks.append(current)
        blockEnds.append(cells.count)
        current = []
        current.reserveCapacity(Self.blockSize)
    }

    private mutating func appendCell(_ cell: String) {
        let start = current.count
        var cell = cell
        // Its bytes in place: a copy and an ASCII check over a buffer, not a string's views.
        let ascii = cell.withUTF8 { bytes in
            current.append(contentsOf: bytes)
            return !bytes.contains { $0 >= 0x80 }
        }
        endCell(from: start, ascii: ascii, text: cell)
    }

    /// `x: rms 0.7071, peak 1; y: ...`, or `-` without a complete window.
    private mutating func appendMainValues(_ listing: MeasurementListing) {
        guard listing.frameCount > 0 else { return appendCell("-") }
        let start = current.count
        var ascii = true
        for (index, channel) in listing.channels.enumerated() {
            if index > 0 { current.append(contentsOf: "; ".utf8) }
            ascii = ascii && !channel.name.utf8.contains { $0 >= 0x80 }
            current.append(contentsOf: channel.name.utf8)
            current.append(contentsOf: ": ".utf8)
            for (position, value) in channel.values.enumerated() {
                if position > 0 { current.append(contentsOf: ", ".utf8) }
                current.append(contentsOf: value.column.utf8)
                current.append(0x20)
                // `%.4g`, as `MeasurementText.number` writes it.
                MeasurementText.appendNumber(value.mean, to: &current)
            }
        }
        endCell(from: start, ascii: ascii, text: nil)
    }

    /// Ends the cell begun at `start`: its width is its bytes when they are ASCII, else its
    /// characters (`text`, or the bytes read back).
    private mutating func endCell(from start: Int, ascii: Bool, text: String?) {
        let length = current.count - start
        let width = ascii ? length : (text ?? String(decoding: current[start...], as: UTF8.self)).count
        cells.append((UInt32(length), UInt32(width)))
    }
}
