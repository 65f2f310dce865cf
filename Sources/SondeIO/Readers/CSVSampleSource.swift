import SondeCore

/// Samples from CSV text (RFC 4180), one row per sample instant.
///
/// Opening reads the first non-empty row and decides whether it is a header (any cell
/// that is not a number makes it one), finds the time column (`time`, `t` or
/// `timestamp`, case-insensitive, blanks trimmed), and settles the rate: `--rate` if
/// given, else `1 / median(diff(time))`, which needs a pre-pass over the whole file
/// before the first sample is delivered. That pre-pass parses every cell, so a file
/// with a time column and no `--rate` is fully validated before any output. A pipe
/// (`cat data.csv | sonde -`) cannot be read twice, so there a time column requires
/// `--rate`; buffering the stream instead would hide an endless live stream behind a
/// silent wait. A regular file redirected into stdin (`sonde - < data.csv`) is read
/// twice like a path.
///
/// A UTF-8 byte order mark at the start of the file is skipped.
final class CSVSampleSource: SampleSource {
    /// A longer row is an error rather than unbounded buffering (an unclosed quote
    /// would otherwise pull the rest of the file into memory).
    static let maximumRowBytes = 64 << 20

    /// Header names (trimmed, case-insensitive) that mark the time column.
    static let timeColumnNames: Set<String> = ["time", "t", "timestamp"]

    private(set) var format = StreamFormat(sampleRate: 0, channelNames: [])
    let notes: [String] = []
    /// Known after the time column's pre-pass (it counts the rows); nil otherwise.
    private(set) var expectedFrames: Int?

    private let input: ChunkedInput
    private let parser: CSVRowParser
    /// Physical line (1-based) of `input.start`.
    private var line = 1
    private var finished = false

    /// - Parameters:
    ///   - canReadTwice: the input is a regular file that can be read again from an offset.
    ///   - distinctStepLimit: distinct time steps counted before the median switches to
    ///     radix selection (tests make it tiny).
    /// - Throws: `SondeError` for an empty file, a bad first row, a missing rate, a
    ///   `--channels` that disagrees, and (with the pre-pass) any bad cell in the file.
    init(
        _ input: ChunkedInput,
        canReadTwice: Bool,
        options: SampleSourceOptions,
        distinctStepLimit: Int = TimeStepCounter.defaultDistinctLimit
    ) throws {
        self.input = input
        distinctLimit = distinctStepLimit
        let name = input.name
        let numbers = DecimalScanner()

        try input.fill(toAtLeast: 3)
        if input.available >= 3 && input.bytes[input.start] == 0xEF && input.bytes[input.start + 1] == 0xBB
            && input.bytes[input.start + 2] == 0xBF
        {
            input.start += 3
        }

        // The first non-empty row, as text.
        let textParser = CSVRowParser(name: name, columnCount: 1, timeColumn: nil, numbers: numbers)
        var firstRowStart = 0
        var firstRowLine = 1
        var firstCells: [String] = []
        var lineAfterFirstRow = 1
        rowSearch: while true {
            var cursor = Self.cursor(input, line: firstRowLine)
            let outcome = try textParser.parseTextRow(&cursor)
            switch outcome {
            case .row(let cells, let rowLine, let rowStart):
                firstCells = cells
                firstRowStart = rowStart - UnsafePointer(input.bytes)
                firstRowLine = rowLine
                lineAfterFirstRow = cursor.line
                input.start = cursor.position - UnsafePointer(input.bytes)
                break rowSearch
            case .needMore:
                // Empty lines the parser skipped stay consumed; the row starts after them.
                input.start = cursor.position - UnsafePointer(input.bytes)
                firstRowLine = cursor.line
                try Self.readMore(input, line: firstRowLine)
            case .endOfInput:
                throw SondeError(
                    .invalidInput, "\(name): the file has no rows; expected a header row or rows of numbers")
            }
        }

        let isHeader = firstCells.contains { !textParser.isNumber($0) }
        var timeColumn: Int?
        var channelNames: [String] = []
        if isHeader {
            for (column, cell) in firstCells.enumerated() {
                let label = Self.trimmed(cell)
                if Self.timeColumnNames.contains(label.lowercased()) {
                    if let timeColumn {
                        throw SondeError(
                            .invalidInput,
                            "two time columns, \(timeColumn + 1) (\(firstCells[timeColumn].debugDescription)) and "
                                + "\(column + 1) (\(cell.debugDescription)); expected one: rename the other",
                            at: SourceLocation(file: name, line: firstRowLine, column: column + 1))
                    }
                    timeColumn = column
                } else {
                    channelNames.append(label.isEmpty ? "ch\(channelNames.count)" : label)
                }
            }
            if channelNames.isEmpty {
                throw SondeError(
                    .invalidInput, "the header has no column besides the time column; expected channels",
                    at: SourceLocation(file: name, line: firstRowLine))
            }
            line = lineAfterFirstRow
        } else {
            channelNames = (0..<firstCells.count).map { "ch\($0)" }
            // The first row is data: parse it again with the rows after it (it is still
            // buffered: nothing was read since it was found).
            input.start = firstRowStart
            line = firstRowLine
        }

        if channelNames.count > SampleSourceOptions.maximumChannels {
            throw SondeError(
                .invalidInput,
                "\(channelNames.count) channel columns; expected at most \(SampleSourceOptions.maximumChannels)",
                at: SourceLocation(file: name, line: firstRowLine))
        }
        if let channels = options.channels, channels != channelNames.count {
            throw SondeError(
                .invalidArgument,
                "--channels \(channels): \(name) has \(channelNames.count) channel"
                    + "\(channelNames.count == 1 ? "" : "s") (\(channelNames.joined(separator: ", ")))")
        }
        parser = CSVRowParser(
            name: name, columnCount: firstCells.count, timeColumn: timeColumn, numbers: numbers)

        var sampleRate = options.sampleRate
        var timeOffset = 0.0
        if timeColumn == nil {
            guard sampleRate != nil else {
                throw SondeError(
                    .invalidArgument,
                    "\(name): no time column (time, t or timestamp in a header row), so the sample rate is "
                        + "unknown; pass --rate HZ")
            }
        } else if sampleRate == nil {
            guard canReadTwice else {
                throw SondeError(
                    .invalidArgument,
                    "\(name): the rate of a time column is measured over the whole file, which a stream cannot "
                        + "be read twice for; pass --rate HZ, or give the file's path instead of a stream")
            }
            let (rate, offset) = try measureRate()
            sampleRate = rate
            timeOffset = offset
        } else {
            timeOffset = try firstTime() ?? 0
        }
        format = StreamFormat(
            sampleRate: sampleRate ?? 0, channelNames: channelNames, timeOffset: timeOffset)
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        guard let destination = buffer.baseAddress, !finished else { return 0 }
        let maximumRows = buffer.count / parser.channelCount
        var rows = 0
        while rows < maximumRows {
            let (parsed, outcome) = try parseRows(
                into: destination + rows * parser.channelCount, times: nil, maximumRows: maximumRows - rows)
            rows += parsed
            switch outcome {
            case .full:
                return rows
            case .endOfInput:
                finished = true
                return rows
            case .needMore:
                // Hand over what is parsed before blocking on a pipe; files refill at once.
                if rows > 0 { return rows }
                try Self.readMore(input, line: line)
            }
        }
        return rows
    }

    // MARK: - Parsing

    private static func cursor(_ input: ChunkedInput, line: Int) -> CSVRowParser.Cursor {
        let bytes = UnsafePointer(input.bytes)
        return CSVRowParser.Cursor(
            position: bytes + input.start, end: bytes + input.end, atEndOfInput: input.atEndOfInput, line: line)
    }

    /// `parseRows` on the buffered bytes, moving `input.start` and `line` past the rows.
    private func parseRows(
        into output: UnsafeMutablePointer<Double>, times: UnsafeMutablePointer<Double>?, maximumRows: Int
    ) throws -> (rows: Int, outcome: CSVRowParser.Outcome) {
        var cursor = Self.cursor(input, line: line)
        let result = try parser.parseRows(&cursor, into: output, times: times, maximumRows: maximumRows)
        input.start = cursor.position - UnsafePointer(input.bytes)
        line = cursor.line
        return result
    }

    /// Reads the next chunk after a cut row, refusing rows longer than `maximumRowBytes`.
    private static func readMore(_ input: ChunkedInput, line: Int) throws {
        if input.available > maximumRowBytes {
            throw SondeError(
                .invalidInput,
                "a row longer than \(maximumRowBytes >> 20) MiB; expected rows of a few cells (is a quote not closed?)",
                at: SourceLocation(file: input.name, line: line))
        }
        try input.fill()
    }

    /// The first data row's time value, without consuming the row; nil without rows.
    private func firstTime() throws -> Double? {
        let row = UnsafeMutablePointer<Double>.allocate(capacity: parser.channelCount)
        defer { row.deallocate() }
        var time = 0.0
        while true {
            var cursor = Self.cursor(input, line: line)
            let (rows, outcome) = try parser.parseRows(&cursor, into: row, times: &time, maximumRows: 1)
            // Empty lines before the row may be consumed; the row itself is kept.
            if rows == 1 { return time }
            input.start = cursor.position - UnsafePointer(input.bytes)
            line = cursor.line
            switch outcome {
            case .needMore: try Self.readMore(input, line: line)
            case .endOfInput, .full: return nil
            }
        }
    }

    /// The pre-pass: `1 / median(diff(time))` and the first time value, then back to the
    /// first data row.
    private func measureRate() throws -> (rate: Double, offset: Double) {
        let dataOffset = input.fileOffsetOfStart
        let dataLine = line
        let counter = TimeStepCounter(distinctLimit: distinctLimit)
        var first: Double?
        var previous: Double?
        try forEachTimeBlock(from: dataOffset, line: dataLine) { times in
            var index = 0
            var last: Double
            if let previous {
                last = previous
            } else {
                last = times[0]
                first = last
                index = 1
            }
            while index < times.count {
                let time = times[index]
                counter.add(time - last)
                last = time
                index += 1
            }
            previous = last
        }
        guard counter.count > 0 else {
            throw SondeError(
                .invalidInput,
                "\(input.name): the rate is measured from the time column's steps, and the file has fewer than two "
                    + "rows; pass --rate HZ")
        }
        var median = counter.median()
        if median == nil {
            median = try TimeStepCounter.select(count: counter.count) { visit in
                var previous: Double?
                try forEachTime(from: dataOffset, line: dataLine) { time in
                    if let previous { visit(time - previous) }
                    previous = time
                }
            }
        }
        let step = median ?? 0
        let rate = 1 / step
        guard step > 0, rate.isFinite else {
            throw SondeError(
                .invalidInput,
                "\(input.name): the time column does not increase (median step \(step) s); expected times in "
                    + "seconds that increase, or pass --rate HZ")
        }
        guard SampleLimits.rates.contains(rate) else {
            throw SondeError(
                .invalidInput,
                "\(input.name): the time column's median step \(step) s gives a rate of \(rate.compactDescription) Hz; "
                    + "expected \(SampleLimits.ratesText) (or pass --rate HZ)")
        }
        try input.rewind(toFileOffset: dataOffset)
        line = dataLine
        expectedFrames = counter.count + 1
        return (rate, first ?? 0)
    }

    /// Parses every row from `offset` and visits the time values, a block at a time.
    private func forEachTimeBlock(
        from offset: Int, line startLine: Int, _ visit: (UnsafeBufferPointer<Double>) -> Void
    ) throws {
        try input.rewind(toFileOffset: offset)
        line = startLine
        let blockRows = 1024
        let rows = UnsafeMutablePointer<Double>.allocate(capacity: blockRows * parser.channelCount)
        let times = UnsafeMutablePointer<Double>.allocate(capacity: blockRows)
        defer {
            rows.deallocate()
            times.deallocate()
        }
        while true {
            let (parsed, outcome) = try parseRows(into: rows, times: times, maximumRows: blockRows)
            if parsed > 0 { visit(UnsafeBufferPointer(start: times, count: parsed)) }
            switch outcome {
            case .full: continue
            case .needMore: try Self.readMore(input, line: line)
            case .endOfInput: return
            }
        }
    }

    /// Parses every row from `offset` and visits each time value.
    private func forEachTime(from offset: Int, line startLine: Int, _ visit: (Double) -> Void) throws {
        try forEachTimeBlock(from: offset, line: startLine) { times in
            for time in times { visit(time) }
        }
    }

    private let distinctLimit: Int

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
