import SondeCore
import SondeMeasurements

/// `sonde measurements list`'s table as bytes: every cell written once into one buffer, then
/// the lines aligned from it. Why not strings joined per line: a lab's 10,000 measurements
/// took a third of the listing's time in string building (perf); this is a tenth of that.
/// The text is what `MeasurementText.aligned` gives: cells padded to their column's width
/// in characters, two spaces apart, the last unpadded, no trailing spaces.
struct ListingTable {
    static let header = ["ID", "RECORDED (UTC)", "DEVICE", "WINDOWS", "MEAN", "COMMENT"]

    /// Every cell's bytes, row after row.
    private var cellBytes: [UInt8] = []
    /// Where each cell ends in `cellBytes`, and its width in characters.
    private var cells: [(end: Int, width: Int)] = []

    /// Lines below the header.
    var rowCount: Int { cells.count / Self.header.count - 1 }

    init() {
        for name in Self.header { appendCell(name) }
    }

    /// Adds a line for each listing, as a store's batches arrive.
    mutating func append(_ listings: [MeasurementListing]) {
        for listing in listings {
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
    func write(_ emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let columns = Self.header.count
        var widths = [Int](repeating: 0, count: columns)
        for (index, cell) in cells.enumerated() { widths[index % columns] = max(widths[index % columns], cell.width) }
        let chunk = 1 << 16
        var output: [UInt8] = []
        output.reserveCapacity(chunk + 4096)
        var start = 0
        for (index, cell) in cells.enumerated() {
            let column = index % columns
            output.append(contentsOf: cellBytes[start..<cell.end])
            start = cell.end
            if column < columns - 1 {
                output.append(contentsOf: repeatElement(0x20, count: widths[column] - cell.width + 2))
            } else {
                while output.last == 0x20 { output.removeLast() }
                output.append(0x0A)
                if output.count >= chunk {
                    try output.withUnsafeBytes(emit)
                    output.removeAll(keepingCapacity: true)
                }
            }
        }
        if !output.isEmpty { try output.withUnsafeBytes(emit) }
    }

    private mutating func appendCell(_ cell: String) {
        let start = cellBytes.count
        var cell = cell
        // Its bytes in place: a copy and an ASCII check over a buffer, not a string's views.
        let ascii = cell.withUTF8 { bytes in
            cellBytes.append(contentsOf: bytes)
            return !bytes.contains { $0 >= 0x80 }
        }
        endCell(from: start, ascii: ascii, text: cell)
    }

    /// `x: rms 0.7071, peak 1; y: ...`, or `-` without a complete window.
    private mutating func appendMainValues(_ listing: MeasurementListing) {
        guard listing.frameCount > 0 else { return appendCell("-") }
        let start = cellBytes.count
        var ascii = true
        for (index, channel) in listing.channels.enumerated() {
            if index > 0 { cellBytes.append(contentsOf: "; ".utf8) }
            ascii = ascii && !channel.name.utf8.contains { $0 >= 0x80 }
            cellBytes.append(contentsOf: channel.name.utf8)
            cellBytes.append(contentsOf: ": ".utf8)
            for (position, value) in channel.values.enumerated() {
                if position > 0 { cellBytes.append(contentsOf: ", ".utf8) }
                cellBytes.append(contentsOf: value.column.utf8)
                cellBytes.append(0x20)
                appendNumber(value.mean)
            }
        }
        endCell(from: start, ascii: ascii, text: nil)
    }

    /// `%.4g`, as `MeasurementText.number` writes it.
    private mutating func appendNumber(_ value: Double) {
        MeasurementText.appendNumber(value, to: &cellBytes)
    }

    /// Ends the cell begun at `start`: its width is its bytes when they are ASCII, else its
    /// characters (`text`, or the bytes read back).
    private mutating func endCell(from start: Int, ascii: Bool, text: String?) {
        let width =
            ascii
            ? cellBytes.count - start
            : (text ?? String(decoding: cellBytes[start..<cellBytes.count], as: UTF8.self)).count
        cells.append((cellBytes.count, width))
    }
}
