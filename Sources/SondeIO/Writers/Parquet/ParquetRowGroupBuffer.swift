import SondeCore

/// The records of the row group being filled, column by column (batches arrive record by
/// record). Arrays keep their capacity from one row group to the next, so a long run
/// allocates them once.
struct RowGroupBuffer {
    /// Distinct strings of a dictionary-encoded column, in first-seen order.
    struct StringDictionary {
        private(set) var entries: [[UInt8]] = []
        private var ids: [String: UInt32] = [:]

        mutating func id(of text: String) -> UInt32 {
            if let id = ids[text] { return id }
            let id = UInt32(entries.count)
            ids[text] = id
            entries.append(Array(text.utf8))
            return id
        }

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
        }
    }

    var files = StringDictionary()
    var channels = StringDictionary()
    private(set) var fileIDs: [UInt32] = []
    private(set) var channelIDs: [UInt32] = []
    /// `time` in seconds (files) or milliseconds since 1970 (live); one of the two fills.
    private(set) var times: [Double] = []
    private(set) var timestamps: [Int64] = []
    private(set) var frames: [Int64] = []
    private(set) var starts: [Int64] = []
    /// One array per value column.
    private(set) var values: [[Double]]
    private(set) var rows = 0

    init(valueColumns: Int, capacity: Int) {
        values = Array(repeating: [], count: valueColumns)
        // Reserve up to a modest size; larger row groups grow as they fill.
        let reserved = min(capacity, ParquetWriterOptions.defaultRowGroupRows)
        for index in values.indices { values[index].reserveCapacity(reserved) }
        frames.reserveCapacity(reserved)
        starts.reserveCapacity(reserved)
        channelIDs.reserveCapacity(reserved)
    }

    /// Appends one record's place: its file, channel, time, frame and start; its values
    /// come with its neighbours' (`appendValues`). `time` is derived exactly as the text
    /// formats derive it (`appendTime(of:start:quoted:)`), so it is the double the CSV
    /// prints, or the millisecond the RFC 3339 text shows.
    mutating func appendRecord(file: UInt32, channel: UInt32, frame: Int, start: Int, clock: RecordClock) {
        fileIDs.append(file)
        channelIDs.append(channel)
        switch clock {
        case .seconds(let rate, let offset):
            times.append(Double(start) / rate + offset)
        case .wallClock(let rate, let epoch):
            timestamps.append(Int64(((epoch + Double(start) / rate) * 1000).rounded(.down)))
        }
        frames.append(Int64(frame))
        starts.append(Int64(start))
        rows += 1
    }

    /// The values of the records appended last, given as rows of one value per column,
    /// copied a column at a time.
    mutating func appendValues(_ rows: UnsafeBufferPointer<Double>) {
        let columns = values.count
        guard columns > 0 else { return }
        let count = rows.count / columns
        for column in 0..<columns {
            values[column].append(contentsOf: (0..<count).lazy.map { rows[$0 * columns + column] })
        }
    }

    mutating func removeAll() {
        files.removeAll()
        channels.removeAll()
        fileIDs.removeAll(keepingCapacity: true)
        channelIDs.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        timestamps.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        for index in values.indices { values[index].removeAll(keepingCapacity: true) }
        rows = 0
    }
}
