package import SondeCore
import SondeIO
package import SondeMeasurements

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the JSON columns of `measurements` (`StoredJSON`'s shapes) straight from their
/// bytes with SondeCore's `JSONReader`, numbers through the CSV reader's `DecimalScanner`
/// (strtod's exact results).
///
/// Why by hand: `JSONDecoder` took about 40 µs a row, most of `sonde measurements list`'s
/// 0.8 s over 10,000 measurements; this takes about 1 µs. It accepts any JSON of these
/// shapes (keys in any order, unknown keys skipped, whitespace, every string escape), so
/// rows written by any version read alike. One reader serves a whole listing; it is not
/// shared between threads.
package final class StoredJSONReader {
    /// SondeCore's reader, on the CSV reader's numbers.
    typealias Cursor = JSONReader<DecimalScanner>

    private let scanner = DecimalScanner()

    package init() {}

    /// A summary column: `{"channels":[{"means":[...],"name":"x"},...],"columns":[...],"frames":N}`.
    /// - Throws: `SondeError(.invalidInput)` naming the byte offset where it stopped.
    package func summary(_ text: String) throws -> MeasurementSummary {
        try read(text, what: "summary") { cursor in
            var columns: [String]?
            var channels: [MeasurementSummary.Channel]?
            var frames: Int?
            try cursor.object { key, cursor in
                switch key {
                case "columns": columns = try cursor.strings()
                case "frames": frames = try cursor.integer()
                case "channels":
                    var list: [MeasurementSummary.Channel] = []
                    try cursor.array { cursor in
                        var name: String?
                        var means: [Double]?
                        try cursor.object { key, cursor in
                            switch key {
                            case "name": name = try cursor.string()
                            case "means": means = try cursor.numbers()
                            default: try cursor.skipValue()
                            }
                        }
                        guard let name, let means else { throw cursor.failure("a channel without name or means") }
                        list.append(MeasurementSummary.Channel(name: name, means: means))
                    }
                    channels = list
                default: try cursor.skipValue()
                }
            }
            guard let columns, let channels, let frames else {
                throw cursor.failure("a summary without columns, channels or frames")
            }
            return MeasurementSummary(columns: columns, channels: channels, frameCount: frames)
        }
    }

    /// The main values of a summary or listed-part column (`MeasurementListing.mainColumns`)
    /// and its window count, converting only the numbers shown. A listed part has its
    /// columns first and is read in one pass; a whole summary has `channels` first, so a
    /// first pass finds the columns and a second reads the channels. The columns' names are
    /// read once for a listing whose rows share them.
    package func mainValues(_ text: String) throws -> (frames: Int, channels: [MeasurementListing.Channel]) {
        try read(text, what: "summary", mainValues)
    }

    /// `mainValues(_:)` of text given as its UTF-8 bytes, read where a database left them
    /// (a copy with a zero byte after it, in a buffer the reader keeps: no string made), or
    /// of a row's `ListedMeans`, which a listing reads in place of JSON since migration 5.
    package func mainValues(
        utf8 bytes: UnsafeRawBufferPointer
    ) throws -> (
        frames: Int, channels: [MeasurementListing.Channel]
    ) {
        if ListedMeans.holds(bytes) { return try ListedMeans.decode(bytes, columns: &listedColumns) }
        zeroTerminated.removeAll(keepingCapacity: true)
        zeroTerminated.append(contentsOf: bytes)
        zeroTerminated.append(0)
        return try zeroTerminated.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return (0, []) }
            return try read(start: start, count: bytes.count, what: "summary", mainValues)
        }
    }

    /// The columns of the last `ListedMeans` read: the next row's, when they are the same.
    private var listedColumns: [String] = []

    /// The bytes `mainValues(utf8:)` reads from.
    private var zeroTerminated: [UInt8] = []

    private func mainValues(_ cursor: inout Cursor) throws -> (frames: Int, channels: [MeasurementListing.Channel]) {
        var frames: Int?
        var shown: (columns: [String], indices: [Int])?
        var channels: [MeasurementListing.Channel]?
        var channelsStart: UnsafePointer<UInt8>?
        try cursor.object { key, cursor in
            switch key {
            case "frames": frames = try cursor.integer()
            case "columns": shown = try shownColumns(&cursor)
            case "channels":
                if let shown {
                    // A listed part puts its columns first: one pass.
                    channels = try self.channels(&cursor, shown: shown)
                } else {
                    cursor.skipSpace()
                    channelsStart = cursor.position
                    try cursor.skipValue()
                }
            default: try cursor.skipValue()
            }
        }
        guard let frames, let shown, channels != nil || channelsStart != nil else {
            throw cursor.failure("a summary without columns, channels or frames")
        }
        if let channels { return (frames, channels) }
        let end = cursor.position
        if let channelsStart { cursor.rewind(to: channelsStart) }
        let read = try self.channels(&cursor, shown: shown)
        cursor.rewind(to: end)
        return (frames, read)
    }

    /// A summary's `channels` array at the cursor, with the shown means converted and the
    /// others skipped.
    private func channels(
        _ cursor: inout Cursor, shown: (columns: [String], indices: [Int])
    ) throws -> [MeasurementListing.Channel] {
        // Arrays of the sizes they end with, and the slots on the stack: a 10,000-line list
        // spent a tenth of its time growing and freeing small arrays (perf).
        var channels: [MeasurementListing.Channel] = []
        channels.reserveCapacity(lastChannelCount)
        guard shown.indices.count <= 3 else { throw cursor.failure("more than three shown columns") }
        try cursor.array { cursor in
            var name: String?
            // Each shown mean in its slot, so the values come in `mainColumns` order whatever
            // the summary's column order; a column the channel has no mean for is left out.
            var means = InlineArray<3, Double?>(repeating: nil)
            try cursor.object { key, cursor in
                switch key {
                case "name": name = try cursor.string()
                case "means":
                    var index = 0
                    try cursor.array { cursor in
                        if let slot = shown.indices.firstIndex(of: index) {
                            means[slot] = try cursor.number()
                        } else {
                            try cursor.skipNumber()
                        }
                        index += 1
                    }
                default: try cursor.skipValue()
                }
            }
            guard let name else { throw cursor.failure("a channel without a name") }
            var values: [MeasurementListing.MainValue] = []
            values.reserveCapacity(shown.columns.count)
            for (slot, column) in shown.columns.enumerated() {
                if let mean = means[slot] { values.append(.init(column: column, mean: mean)) }
            }
            channels.append(.init(name: name, values: values))
        }
        lastChannelCount = channels.count
        return channels
    }

    /// How many channels the last listing row had: the next one likely has as many.
    private var lastChannelCount = 0

    /// The last listing row's `columns` bytes, and what they gave.
    private var lastColumns: (bytes: [UInt8], shown: (columns: [String], indices: [Int]))?

    /// The shown columns' names and indices, from a `columns` array at the cursor.
    private func shownColumns(_ cursor: inout Cursor) throws -> (columns: [String], indices: [Int]) {
        let first = cursor.position
        try cursor.skipValue()
        let bytes = cursor.bytes(from: first)
        if let last = lastColumns, last.bytes.count == bytes.count,
            last.bytes.withUnsafeBytes({ cached in
                guard let a = cached.baseAddress, let b = bytes.baseAddress else { return cached.isEmpty }
                return memcmp(a, b, bytes.count) == 0
            })
        {
            return last.shown
        }
        let end = cursor.position
        cursor.rewind(to: first)
        let columns = try cursor.strings()
        cursor.rewind(to: end)
        let indices = MeasurementListing.shownColumns(of: columns)
        let shown = (columns: indices.map { columns[$0] }, indices: indices)
        lastColumns = (Array(bytes), shown)
        return shown
    }

    /// A record clock column: `{"kind":"seconds","offset":0,"sampleRate":25600}` or
    /// `{"epochOfFirstSample":...,"kind":"wall_clock","sampleRate":...}`.
    package func clock(_ text: String) throws -> RecordClock {
        try read(text, what: "record clock") { cursor in
            var kind: String?
            var rate: Double?
            var offset: Double?
            var epoch: Double?
            try cursor.object { key, cursor in
                switch key {
                case "kind": kind = try cursor.string()
                case "sampleRate": rate = try cursor.number()
                case "offset": offset = try cursor.number()
                case "epochOfFirstSample": epoch = try cursor.number()
                default: try cursor.skipValue()
                }
            }
            switch (kind, rate, offset, epoch) {
            case ("seconds", let rate?, let offset?, _): return .seconds(sampleRate: rate, offset: offset)
            case ("wall_clock", let rate?, _, let epoch?):
                return .wallClock(sampleRate: rate, epochOfFirstSample: epoch)
            default: throw cursor.failure("an unknown kind of clock, or one without its rate and start")
            }
        }
    }

    /// A JSON array of strings (`channels`, `columns`).
    package func strings(_ text: String) throws -> [String] {
        try read(text, what: "list of names") { try $0.strings() }
    }

    private func read<T>(_ text: String, what: String, _ body: (inout Cursor) throws -> T) throws -> T {
        let count = text.utf8.count
        // A native string's bytes end in a zero byte, which stops every scan (no copy).
        return try text.withCString { characters in
            try characters.withMemoryRebound(to: UInt8.self, capacity: count + 1) { start in
                try read(start: start, count: count, what: what, body)
            }
        }
    }

    /// Reads `count` bytes from `start`, which a zero byte follows.
    private func read<T>(
        start: UnsafePointer<UInt8>, count: Int, what: String, _ body: (inout Cursor) throws -> T
    ) throws -> T {
        var cursor = Cursor(start: start, end: start + count, numbers: scanner, what: "stored \(what)")
        let value = try body(&cursor)
        cursor.skipSpace()
        guard cursor.position == cursor.end else { throw cursor.failure("text after the value") }
        return value
    }
}
