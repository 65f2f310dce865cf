package import SondeCore
import SondeIO
package import SondeMeasurements

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the JSON columns of `measurements` (`StoredJSON`'s shapes) straight from their
/// bytes, numbers through the CSV reader's `DecimalScanner` (strtod's exact results).
///
/// Why by hand: `JSONDecoder` took about 40 µs a row, most of `sonde measurements list`'s
/// 0.8 s over 10,000 measurements; this takes about 1 µs. It accepts any JSON of these
/// shapes (keys in any order, unknown keys skipped, whitespace, every string escape), so
/// rows written by any version read alike. One reader serves a whole listing; it is not
/// shared between threads.
package final class StoredJSONReader {
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

    private func mainValues(_ cursor: inout JSONCursor) throws -> (frames: Int, channels: [MeasurementListing.Channel])
    {
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
        _ cursor: inout JSONCursor, shown: (columns: [String], indices: [Int])
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
    private func shownColumns(_ cursor: inout JSONCursor) throws -> (columns: [String], indices: [Int]) {
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

    private func read<T>(_ text: String, what: String, _ body: (inout JSONCursor) throws -> T) throws -> T {
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
        start: UnsafePointer<UInt8>, count: Int, what: String, _ body: (inout JSONCursor) throws -> T
    ) throws -> T {
        var cursor = JSONCursor(start: start, end: start + count, scanner: scanner, what: what)
        let value = try body(&cursor)
        cursor.skipSpace()
        guard cursor.position == cursor.end else { throw cursor.failure("text after the value") }
        return value
    }
}

/// A position in zero-terminated JSON bytes, and the few readers `StoredJSONReader` needs.
struct JSONCursor {
    private let start: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
    private(set) var position: UnsafePointer<UInt8>
    private let scanner: DecimalScanner
    private let what: String

    init(start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, scanner: DecimalScanner, what: String) {
        self.start = start
        self.end = end
        position = start
        self.scanner = scanner
        self.what = what
    }

    func failure(_ problem: String) -> SondeError {
        SondeError(.invalidInput, "stored \(what), byte \(position - start): \(problem)")
    }

    mutating func skipSpace() {
        while position < end {
            let byte = position.pointee
            guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return }
            position += 1
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < end, position.pointee == byte else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard take(byte) else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    /// `[ value, ... ]`, `body` reading each value.
    mutating func array(_ body: (inout JSONCursor) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        if take(UInt8(ascii: "]")) { return }
        repeat { try body(&self) } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// `{ "key": value, ... }`, `body` reading each value after its key.
    mutating func object(_ body: (JSONKey, inout JSONCursor) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if take(UInt8(ascii: "}")) { return }
        repeat {
            skipSpace()
            let first = position + 1
            var next = first
            while next < end, next.pointee != UInt8(ascii: "\""), next.pointee >= 0x20,
                next.pointee != UInt8(ascii: "\\")
            {
                next += 1
            }
            if position < end, position.pointee == UInt8(ascii: "\""), next < end, next.pointee == UInt8(ascii: "\"") {
                // The common key, without escapes: compared where it lies.
                position = next + 1
                try expect(UInt8(ascii: ":"))
                try body(JSONKey(bytes: UnsafeBufferPointer(start: first, count: next - first)), &self)
            } else {
                var key = try string()
                try expect(UInt8(ascii: ":"))
                try key.withUTF8 { try body(JSONKey(bytes: $0), &self) }
            }
        } while take(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    mutating func strings() throws -> [String] {
        var strings: [String] = []
        try array { strings.append(try $0.string()) }
        return strings
    }

    mutating func numbers() throws -> [Double] {
        var numbers: [Double] = []
        try array { numbers.append(try $0.number()) }
        return numbers
    }

    mutating func number() throws -> Double {
        skipSpace()
        // JSON's grammar inside DecimalScanner's (which also takes "+1", ".5", "5."): what
        // JSON forbids is never written by StoredJSON, and reads as the number it spells.
        guard position < end, position.pointee == UInt8(ascii: "-") || (position.pointee &- 0x30) <= 9 else {
            throw failure("expected a number")
        }
        switch scanner.scan(position) {
        case .number(let value, let next) where next <= end:
            position = next
            return value
        default:
            throw failure("expected a number")
        }
    }

    mutating func integer() throws -> Int {
        let value = try number()
        guard let integer = Int(exactly: value) else { throw failure("expected a whole number") }
        return integer
    }

    /// A string, with every JSON escape (surrogate pairs included) decoded.
    mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let first = position
        // The common case, no escape: one copy of the bytes.
        while position < end, position.pointee != UInt8(ascii: "\""), position.pointee != UInt8(ascii: "\\") {
            guard position.pointee >= 0x20 else { throw failure("a control character in a string") }
            position += 1
        }
        guard position < end else { throw failure("a string without its closing quote") }
        if position.pointee == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: UnsafeBufferPointer(start: first, count: position - 1 - first), as: UTF8.self)
        }
        var bytes = Array(UnsafeBufferPointer(start: first, count: position - first))
        while position.pointee == UInt8(ascii: "\\") {
            position += 1
            guard position < end else { throw failure("a string without its closing quote") }
            let escape = position.pointee
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"): bytes.append(contentsOf: try unicodeEscape())
            default: throw failure("an unknown escape in a string")
            }
            while position < end, position.pointee != UInt8(ascii: "\""), position.pointee != UInt8(ascii: "\\") {
                guard position.pointee >= 0x20 else { throw failure("a control character in a string") }
                bytes.append(position.pointee)
                position += 1
            }
            guard position < end else { throw failure("a string without its closing quote") }
        }
        position += 1
        // The text is a valid String and cuts at ASCII quotes, so the bytes are valid UTF-8.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 of `\uXXXX` (its `\u` read), or of a `\uD8xx\uDCxx` pair.
    private mutating func unicodeEscape() throws -> [UInt8] {
        var unit = try hex4()
        if (0xD800..<0xDC00).contains(unit) {
            guard end - position >= 6, position[0] == UInt8(ascii: "\\"), position[1] == UInt8(ascii: "u") else {
                throw failure("half a surrogate pair")
            }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("half a surrogate pair") }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("half a surrogate pair") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws -> UInt32 {
        guard end - position >= 4 else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = position.pointee | 0x20
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: throw failure("a \\u escape that is not 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Any JSON value, read past without keeping it (keys a later version may add).
    mutating func skipValue() throws {
        skipSpace()
        guard position < end else { throw failure("expected a value") }
        switch position.pointee {
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer()
        case UInt8(ascii: "\""): try skipString()
        default:
            for word in ["true", "false", "null"] where end - position >= word.utf8.count {
                if word.utf8.elementsEqual(UnsafeBufferPointer(start: position, count: word.utf8.count)) {
                    position += word.utf8.count
                    return
                }
            }
            try skipNumber()
        }
    }

    /// An array or object, read past by its brackets alone (strings and their escapes
    /// respected): a listing skips most of each summary, and what it skips it does not check.
    mutating func skipContainer() throws {
        var depth = 0
        while position < end {
            switch position.pointee {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    position += 1
                    return
                }
            case UInt8(ascii: "\""):
                position += 1
                while position < end, position.pointee != UInt8(ascii: "\"") {
                    position += position.pointee == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < end else { throw failure("a string without its closing quote") }
            default:
                break
            }
            position += 1
        }
        throw failure("an array or object without its end")
    }

    /// A string, read past: only its end is found.
    mutating func skipString() throws {
        try expect(UInt8(ascii: "\""))
        while position < end, position.pointee != UInt8(ascii: "\"") {
            position += position.pointee == UInt8(ascii: "\\") ? 2 : 1
        }
        guard position < end else { throw failure("a string without its closing quote") }
        position += 1
    }

    /// A number, read past without converting it.
    mutating func skipNumber() throws {
        skipSpace()
        let first = position
        while position < end {
            let byte = position.pointee
            guard
                (byte &- 0x30) <= 9 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
            else { break }
            position += 1
        }
        guard position > first else { throw failure("expected a value") }
    }

    /// Moves to `other`'s position (a second pass over the same bytes).
    mutating func rewind(to other: UnsafePointer<UInt8>) {
        position = other
    }

    /// The bytes from `first` to here.
    func bytes(from first: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: first, count: position - first)
    }
}

/// An object's key as its bytes, matched by `switch` against the names a reader knows:
/// making a string of every key was a tenth of a listing's reading (perf). Valid only
/// inside the `object` body it is given to.
struct JSONKey {
    let bytes: UnsafeBufferPointer<UInt8>

    static func ~= (name: StaticString, key: JSONKey) -> Bool {
        guard name.utf8CodeUnitCount == key.bytes.count, let base = key.bytes.baseAddress else {
            return name.utf8CodeUnitCount == key.bytes.count
        }
        return memcmp(name.utf8Start, base, key.bytes.count) == 0
    }
}
