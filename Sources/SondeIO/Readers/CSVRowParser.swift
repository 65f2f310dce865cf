import SondeCore

/// Turns the bytes of RFC 4180 rows into Doubles: the CSV reader's hot loop.
///
/// The common cell (an unquoted number followed by `,` or a line end) is converted in
/// one pass over its bytes, straight into the caller's sample buffer; anything else
/// (quotes, a bad cell, a row with the wrong cell count, a number `strtod` must convert)
/// takes the slow path, which copies the cell's content into one reused scratch buffer.
/// Nothing is allocated per row or per cell.
///
/// Rows may be cut by the end of the buffered bytes: the parser then stops at the start
/// of that row with `.needMore`, and the caller reads more and calls again. Errors are
/// only reported for complete cells and rows, so a cut never produces a false error.
final class CSVRowParser {
    /// Where the parser is in the buffered bytes. `end` points at the buffer's zero byte.
    struct Cursor {
        var position: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>
        let atEndOfInput: Bool
        /// Physical line (1-based) of `position`.
        var line: Int
    }

    enum Outcome: Equatable {
        /// `maximumRows` rows were parsed.
        case full
        /// The next row is not completely buffered; read more and call again.
        case needMore
        /// No rows are left.
        case endOfInput
    }

    /// A converted cell and what follows it.
    struct Cell {
        var value: Double
        /// The first byte after the cell's separator or line end.
        var next: UnsafePointer<UInt8>
        var endsRow: Bool
        /// Line feeds consumed: inside quotes, and the row's own line end.
        var newlines: Int
    }

    /// A cell's extent; its unquoted content is in `scratch[0..<length]`.
    struct Extent {
        var length: Int
        var next: UnsafePointer<UInt8>
        var endsRow: Bool
        var newlines: Int
    }

    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let comma: UInt8 = 0x2C
    static let quote: UInt8 = 0x22

    let name: String
    /// Cells per row, time column included.
    let columnCount: Int
    /// 0-based index of the time column, or -1.
    let timeColumn: Int
    /// Doubles written per row: the cells other than the time column.
    let channelCount: Int
    let numbers: DecimalScanner

    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity: Int

    init(name: String, columnCount: Int, timeColumn: Int?, numbers: DecimalScanner) {
        self.name = name
        self.columnCount = columnCount
        self.timeColumn = timeColumn ?? -1
        channelCount = columnCount - (timeColumn == nil ? 0 : 1)
        self.numbers = numbers
        scratchCapacity = 256
        scratch = .allocate(capacity: scratchCapacity + 1)
    }

    deinit {
        scratch.deallocate()
    }

    // MARK: - Rows of numbers

    /// Parses up to `maximumRows` rows, writing each row's channel values to `output`
    /// (`channelCount` Doubles per row) and, when `times` is given, its time value there.
    /// Empty lines are skipped.
    ///
    /// On `.needMore` the cursor is at the start of the row that was cut.
    ///
    /// - Throws: `SondeError(.invalidInput)` naming line and column of a cell that is not
    ///   a number, or of a row with the wrong number of cells.
    func parseRows(
        _ cursor: inout Cursor,
        into output: UnsafeMutablePointer<Double>,
        times: UnsafeMutablePointer<Double>?,
        maximumRows: Int
    ) throws -> (rows: Int, outcome: Outcome) {
        var position = cursor.position
        var line = cursor.line
        defer {
            cursor.position = position
            cursor.line = line
        }
        let end = cursor.end
        let atEndOfInput = cursor.atEndOfInput
        let lastColumn = columnCount - 1
        let timeColumn = self.timeColumn
        let channelCount = self.channelCount
        var rows = 0
        var row = output

        rowLoop: while rows < maximumRows {
            let first = position.pointee
            if first == Self.lineFeed {
                position += 1
                line += 1
                continue
            }
            if first == Self.carriageReturn {
                if (position + 1).pointee == Self.lineFeed {
                    position += 2
                    line += 1
                    continue
                }
                if position + 1 == end {
                    if !atEndOfInput { return (rows, .needMore) }
                    position += 1  // a CR alone at the very end: an empty last line
                    continue
                }
            }
            if position == end { return (rows, atEndOfInput ? .endOfInput : .needMore) }

            let rowStart = position
            let rowLine = line
            var column = 0
            var channel = 0
            var time = 0.0
            while true {
                let cell: Cell
                if let fast = fastCell(at: position, end: end, atEndOfInput: atEndOfInput) {
                    cell = fast
                } else if let slow = try slowCell(
                    at: position, end: end, atEndOfInput: atEndOfInput, line: line, column: column)
                {
                    cell = slow
                } else {
                    position = rowStart
                    line = rowLine
                    return (rows, .needMore)
                }
                if column == timeColumn {
                    time = cell.value
                } else {
                    row[channel] = cell.value
                    channel &+= 1
                }
                if cell.endsRow {
                    if column != lastColumn {
                        throw wrongCellCount(found: column + 1, line: line, column: column + 2)
                    }
                    line &+= cell.newlines
                    position = cell.next
                    if let times { times[rows] = time }
                    rows &+= 1
                    row += channelCount
                    continue rowLoop
                }
                line &+= cell.newlines
                if column == lastColumn {
                    guard
                        let extra = try countCells(
                            from: cell.next, end: end, atEndOfInput: atEndOfInput, line: line,
                            column: column + 1)
                    else {
                        position = rowStart
                        line = rowLine
                        return (rows, .needMore)
                    }
                    throw wrongCellCount(found: columnCount + extra, line: line, column: columnCount + 1)
                }
                column &+= 1
                position = cell.next
            }
        }
        return (rows, .full)
    }

    /// An unquoted number followed directly by a separator; nil sends the cell to the
    /// slow path (which also handles a cell cut by the end of the buffer). Inlined for
    /// the same measured reason as `DecimalScanner.scan`.
    @inline(__always)
    private func fastCell(
        at position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, atEndOfInput: Bool
    ) -> Cell? {
        // Beyond the limit goes to the slow path too, which reports it.
        guard case .number(let value, let stop) = numbers.scan(position), SampleLimits.contains(value) else {
            return nil
        }
        let terminator = stop.pointee
        if terminator == Self.comma {
            return Cell(value: value, next: stop + 1, endsRow: false, newlines: 0)
        }
        if terminator == Self.lineFeed {
            return Cell(value: value, next: stop + 1, endsRow: true, newlines: 1)
        }
        if terminator == Self.carriageReturn && (stop + 1).pointee == Self.lineFeed {
            return Cell(value: value, next: stop + 2, endsRow: true, newlines: 1)
        }
        if stop == end && atEndOfInput {
            return Cell(value: value, next: stop, endsRow: true, newlines: 0)
        }
        return nil
    }

    /// Any cell: finds its extent (quotes included), then converts its content.
    /// Returns nil when the cell is cut by the end of the buffer.
    @inline(never)
    private func slowCell(
        at position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, atEndOfInput: Bool, line: Int, column: Int
    ) throws -> Cell? {
        guard
            let extent = try extractCell(
                at: position, end: end, atEndOfInput: atEndOfInput, line: line, column: column)
        else { return nil }
        let content = UnsafePointer(scratch)
        let contentEnd = content + extent.length
        switch numbers.scan(content) {
        case .number(let value, let stop) where stop == contentEnd && SampleLimits.contains(value):
            return Cell(value: value, next: extent.next, endsRow: extent.endsRow, newlines: extent.newlines)
        case .number(_, let stop) where stop == contentEnd:
            throw invalid(
                line: line, column: column + 1,
                "found \(describeContent(length: extent.length)); expected a number of magnitude at most 1e100 "
                    + "(larger samples would overflow the features)")
        case .outOfRange(let stop) where stop == contentEnd:
            throw invalid(
                line: line, column: column + 1,
                "expected a number, found \(describeContent(length: extent.length)), which is out of the range "
                    + "of a 64-bit float")
        default:
            throw invalid(
                line: line, column: column + 1,
                "expected a number, found \(describeContent(length: extent.length))")
        }
    }

    /// Counts the cells from `start` to the end of the row; nil if the row is cut.
    private func countCells(
        from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, atEndOfInput: Bool, line: Int, column: Int
    ) throws -> Int? {
        var position = start
        var line = line
        var column = column
        var count = 0
        while true {
            guard
                let extent = try extractCell(
                    at: position, end: end, atEndOfInput: atEndOfInput, line: line, column: column)
            else { return nil }
            count += 1
            if extent.endsRow { return count }
            line += extent.newlines
            column += 1
            position = extent.next
        }
    }

    // MARK: - Cells as text (the header)

    enum TextRow {
        /// `start` is where the row's first cell begins.
        case row(cells: [String], line: Int, start: UnsafePointer<UInt8>)
        case needMore
        case endOfInput
    }

    /// Reads the next non-empty row as text cells (quotes removed, `""` unescaped),
    /// whatever their content: how the header is read and a file's first row judged.
    /// On `.needMore` the cursor is unchanged apart from skipped empty lines.
    func parseTextRow(_ cursor: inout Cursor) throws -> TextRow {
        let end = cursor.end
        let atEndOfInput = cursor.atEndOfInput
        while true {
            let first = cursor.position.pointee
            if first == Self.lineFeed {
                cursor.position += 1
                cursor.line += 1
                continue
            }
            if first == Self.carriageReturn && (cursor.position + 1).pointee == Self.lineFeed {
                cursor.position += 2
                cursor.line += 1
                continue
            }
            if first == Self.carriageReturn && cursor.position + 1 == end {
                if !atEndOfInput { return .needMore }
                cursor.position += 1
                continue
            }
            if cursor.position == end { return atEndOfInput ? .endOfInput : .needMore }
            break
        }
        var position = cursor.position
        var line = cursor.line
        let rowStart = position
        let rowLine = line
        var cells: [String] = []
        while true {
            guard
                let extent = try extractCell(
                    at: position, end: end, atEndOfInput: atEndOfInput, line: line, column: cells.count)
            else { return .needMore }
            cells.append(String(decoding: UnsafeBufferPointer(start: scratch, count: extent.length), as: UTF8.self))
            line += extent.newlines
            position = extent.next
            if extent.endsRow { break }
        }
        cursor.position = position
        cursor.line = line
        return .row(cells: cells, line: rowLine, start: rowStart)
    }

    /// Whether `text` is a number in the grammar of `DecimalScanner` (out-of-range
    /// magnitudes count: they are numbers that cannot be represented).
    func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            // Scan a zero-terminated copy: the scanner reads one byte past the content.
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
            defer { copy.deallocate() }
            copy.update(from: base, count: bytes.count)
            copy[bytes.count] = 0
            let contentEnd = UnsafePointer(copy) + bytes.count
            switch numbers.scan(copy) {
            case .number(_, let stop), .outOfRange(let stop): return stop == contentEnd
            case .notANumber: return false
            }
        }
    }

    // MARK: - Extents

    /// Finds where the cell at `start` ends and copies its content into `scratch`.
    /// A cell is quoted only if its first byte is `"`; a quote anywhere else is content.
    /// Returns nil when the cell is cut by the end of the buffer.
    private func extractCell(
        at start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, atEndOfInput: Bool, line: Int, column: Int
    ) throws -> Extent? {
        var position = start
        var length = 0
        var newlines = 0
        if position != end && position.pointee == Self.quote {
            position += 1
            while true {
                if position == end {
                    if !atEndOfInput { return nil }
                    throw invalid(
                        line: line, column: column + 1,
                        "a quoted cell is not closed: expected a closing \" before the end of the file")
                }
                let byte = position.pointee
                if byte == Self.quote {
                    if position + 1 == end && !atEndOfInput { return nil }
                    if position + 1 != end && (position + 1).pointee == Self.quote {
                        append(Self.quote, at: &length)
                        position += 2
                        continue
                    }
                    position += 1
                    break
                }
                if byte == Self.lineFeed { newlines += 1 }
                append(byte, at: &length)
                position += 1
            }
            guard let (next, endsRow, lineEnds) = separator(at: position, end: end, atEndOfInput: atEndOfInput)
            else {
                if position == end || (position + 1 == end && position.pointee == Self.carriageReturn) {
                    return nil
                }
                let found = String(decoding: CollectionOfOne(position.pointee), as: UTF8.self)
                throw invalid(
                    line: line, column: column + 1,
                    "expected a comma or the end of the line after a closing quote, found \(found.debugDescription)")
            }
            scratch[length] = 0
            return Extent(length: length, next: next, endsRow: endsRow, newlines: newlines + lineEnds)
        }
        while true {
            if let (next, endsRow, lineEnds) = separator(at: position, end: end, atEndOfInput: atEndOfInput) {
                scratch[length] = 0
                return Extent(length: length, next: next, endsRow: endsRow, newlines: lineEnds)
            }
            if position == end || (position + 1 == end && position.pointee == Self.carriageReturn) {
                return nil
            }
            append(position.pointee, at: &length)
            position += 1
        }
    }

    /// A separator at `position`: `,`, LF, CRLF, or the end of the input (a CR just before
    /// the end of the input counts as a line end). Nil if there is none, or if the
    /// buffer ends where one might be.
    @inline(__always)
    private func separator(
        at position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, atEndOfInput: Bool
    ) -> (next: UnsafePointer<UInt8>, endsRow: Bool, newlines: Int)? {
        if position == end {
            return atEndOfInput ? (position, true, 0) : nil
        }
        switch position.pointee {
        case Self.comma: return (position + 1, false, 0)
        case Self.lineFeed: return (position + 1, true, 1)
        case Self.carriageReturn:
            if position + 1 == end { return atEndOfInput ? (position + 1, true, 0) : nil }
            if (position + 1).pointee == Self.lineFeed { return (position + 2, true, 1) }
            return nil
        default: return nil
        }
    }

    private func append(_ byte: UInt8, at length: inout Int) {
        if length == scratchCapacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity * 2 + 1)
            bigger.update(from: scratch, count: length)
            scratch.deallocate()
            scratch = bigger
            scratchCapacity *= 2
        }
        scratch[length] = byte
        length += 1
    }

    // MARK: - Errors

    /// The scratch content for a message: quoted, escaped, at most 40 characters.
    private func describeContent(length: Int) -> String {
        if length == 0 { return "an empty cell" }
        let text = String(decoding: UnsafeBufferPointer(start: scratch, count: length), as: UTF8.self)
        if text.count <= 40 { return text.debugDescription }
        return String(text.prefix(40)).debugDescription + "..."
    }

    private func wrongCellCount(found: Int, line: Int, column: Int) -> SondeError {
        invalid(line: line, column: column, "expected \(columnCount) cells in every row, found \(found)")
    }

    func invalid(line: Int, column: Int, _ message: String) -> SondeError {
        SondeError(.invalidInput, message, at: SourceLocation(file: name, line: line, column: column))
    }
}
