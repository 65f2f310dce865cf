public import SondeCore

/// Apache Parquet: one flat schema with the CSV's columns in the CSV's order, row groups of
/// at most `rowGroupRows` records, footer last.
///
/// Column types: `file` and `channel` dictionary-encoded UTF-8 strings; `time` a DOUBLE
/// (seconds, the same double the CSV prints) or, for live sources, a
/// TIMESTAMP(MILLIS, UTC) of the millisecond the text formats print; `frame` and `start`
/// INT64; every value column DOUBLE (BYTE_STREAM_SPLIT under zstd, else PLAIN: the same
/// bits either way), so values read back bit for bit. All columns
/// are required. A run with no records writes a valid file with the schema and no row
/// group; its `time` is a DOUBLE, as the clock is known only from a batch.
///
/// The file is written front to back (pages, then the footer), so standard output and
/// pipes work as well as files; a file appears only at `finish()` (`OutputFile`).
public final class ParquetRecordWriter: RecordWriter {
    /// Nil: the workers' per-record text encoding does not apply to a columnar format.
    public var encoder: (any RecordEncoder)? { nil }

    private let layout: RecordLayout
    private let options: ParquetWriterOptions
    private let output: OutputFile
    /// Bytes written so far: the next page's file offset.
    private var offset: Int64
    /// The footer's row groups so far, serialized (on disk past 1 MiB).
    private var rowGroups = ParquetFooterSpool()
    private var rowsWritten: Int64 = 0
    /// Whether `time` is a wall-clock TIMESTAMP; decided by the first batch.
    private var wallClock: Bool?
    private var group: RowGroupBuffer
    /// The run's workers while it lasts (`lend`): a row group's column chunks are then
    /// encoded and compressed side by side, each with a compressor of its own lane.
    private var work: ParallelWork?
    /// A compressor per lane; one while no workers are lent.
    private var compressors: [ParquetPageCompressor]
    /// Column chunks encoded at once at most: each holds its compressed bytes until written,
    /// and each lane a compression context.
    private static let maximumLanes = 8

    /// Writes the leading `PAR1` at once.
    /// - Throws: `SondeError(.invalidArgument)` for a row-group size outside `rowGroupRowsRange`.
    public init(layout: RecordLayout, output: OutputFile, options: ParquetWriterOptions) throws {
        guard ParquetWriterOptions.rowGroupRowsRange.contains(options.rowGroupRows) else {
            throw SondeError(
                .invalidArgument,
                "--row-group-rows \(options.rowGroupRows): expected \(ParquetWriterOptions.rowGroupRowsRange.lowerBound)...\(ParquetWriterOptions.rowGroupRowsRange.upperBound)"
            )
        }
        self.layout = layout
        self.options = options
        self.output = output
        compressors = [try ParquetPageCompressor(options.compression)]
        group = RowGroupBuffer(valueColumns: layout.valueColumns.count, capacity: options.rowGroupRows)
        try output.write(Parquet.magic)
        offset = Int64(Parquet.magic.count)
    }

    public func lend(_ work: ParallelWork?) throws {
        // The run is ending: its last row group is encoded while the workers are there.
        if work == nil, self.work != nil { try flushRowGroup() }
        self.work = work
    }

    public func write(_ batch: RecordBatch) throws {
        guard batch.columnCount == layout.valueColumns.count else {
            throw SondeError(
                .invalidInput,
                "\(batch.fileName): \(batch.columnCount) values per record, expected \(layout.valueColumns.count) (\(layout.valueColumns.joined(separator: ",")))"
            )
        }
        let isWallClock: Bool
        switch batch.clock {
        case .seconds: isWallClock = false
        case .wallClock: isWallClock = true
        }
        if let wallClock, wallClock != isWallClock {
            throw SondeError(
                .invalidInput, "\(batch.fileName): live and recorded times cannot share one Parquet time column")
        }
        wallClock = isWallClock
        let columns = batch.columnCount
        // Dictionary ids of this batch's file and channels, looked up once per row group
        // (each row group has its own dictionaries, holding only what it uses).
        var fileID: UInt32?
        var channelIDs = [UInt32?](repeating: nil, count: batch.channelNames.count)
        let channelCount = batch.channelNames.count
        let rowCount = batch.frameCount * channelCount
        try batch.values.withUnsafeBufferPointer { values in
            // The batch's records are rows of `columns` values, frame by frame and channel by
            // channel: as many as the row group has room for are added at once, their values
            // a column at a time (value by value into 59 arrays was 5% of a run over 2,000
            // clips with --mel 40 --mfcc 13, perf).
            var row = 0
            while row < rowCount {
                if group.rows == options.rowGroupRows {
                    try flushRowGroup()
                    fileID = nil
                    channelIDs = channelIDs.map { _ in nil }
                }
                let taken = Swift.min(rowCount - row, options.rowGroupRows - group.rows)
                for record in row..<(row + taken) {
                    let channel = record % channelCount
                    let frame = batch.firstFrame + record / channelCount
                    let file = fileID ?? group.files.id(of: batch.fileName)
                    fileID = file
                    let channelID = channelIDs[channel] ?? group.channels.id(of: batch.channelNames[channel])
                    channelIDs[channel] = channelID
                    group.appendRecord(
                        file: file, channel: channelID, frame: frame, start: frame * batch.hop, clock: batch.clock)
                }
                group.appendValues(UnsafeBufferPointer(rebasing: values[(row * columns)..<((row + taken) * columns)]))
                row += taken
            }
        }
    }

    public func finish() throws {
        try flushRowGroup()
        let footer = Parquet.FileMetaData(
            schema: schema(), numRows: rowsWritten, rowGroupCount: rowGroups.count,
            keyValueMetadata: options.keyValueMetadata, createdBy: options.createdBy
        ).serialized()
        let before = output.bytesWritten + output.bufferedCount
        try output.write(footer.prefix)
        try rowGroups.copy(to: output)
        try output.write(footer.suffix)
        let footerSize = output.bytesWritten + output.bufferedCount - before
        guard let length = UInt32(exactly: footerSize) else {
            throw SondeError(
                .invalidArgument,
                "--row-group-rows \(options.rowGroupRows): the Parquet footer would hold \(footerSize) bytes, over 4 GiB; use larger row groups"
            )
        }
        try output.write(ParquetColumnChunk.littleEndianBytes(length))
        try output.write(Parquet.magic)
        try output.commit()
    }

    /// The flat schema: a root group, then one required leaf per column of `layout`.
    private func schema() -> [Parquet.SchemaElement] {
        var leaves: [Parquet.SchemaElement] = []
        let string = { (name: String) in
            Parquet.SchemaElement(name: name, type: .byteArray, convertedType: .utf8, logicalType: .string)
        }
        if layout.includesFile { leaves.append(string("file")) }
        if wallClock == true {
            leaves.append(
                .init(name: "time", type: .int64, convertedType: .timestampMillis, logicalType: .timestampMillisUTC))
        } else {
            leaves.append(.init(name: "time", type: .double))
        }
        leaves.append(string("channel"))
        leaves.append(.init(name: "frame", type: .int64))
        leaves.append(.init(name: "start", type: .int64))
        for name in layout.valueColumns { leaves.append(.init(name: name, type: .double)) }
        return [.root(children: leaves.count)] + leaves
    }

    /// Writes the buffered records as one row group (nothing when there are none).
    private func flushRowGroup() throws {
        guard group.rows > 0 else { return }
        let groupOffset = offset
        // The chunks share the group's arrays, and are gone by `removeAll` below: arrays
        // still shared there would be copied, and the next group would fault in new pages
        // (33 MB a group of 65,536 rows with --mel 40 --mfcc 13).
        let columns = try writeChunks(rowGroupChunks())
        try rowGroups.append(
            Parquet.RowGroup(
                columns: columns, numRows: Int64(group.rows), fileOffset: groupOffset,
                ordinal: Int16(exactly: rowGroups.count)
            ).serializedElement()
        )
        rowsWritten += Int64(group.rows)
        group.removeAll()
    }

    /// The buffered row group's columns in schema order, sharing the group's arrays.
    private func rowGroupChunks() -> [(values: ParquetColumnChunk.Values, name: String)] {
        var chunks: [(values: ParquetColumnChunk.Values, name: String)] = []
        if layout.includesFile {
            chunks.append((.dictionary(indices: group.fileIDs, entries: group.files.entries), "file"))
        }
        chunks.append((wallClock == true ? .integers(group.timestamps) : .doubles(group.times), "time"))
        chunks.append((.dictionary(indices: group.channelIDs, entries: group.channels.entries), "channel"))
        chunks.append((.integers(group.frames), "frame"))
        chunks.append((.integers(group.starts), "start"))
        for (index, name) in layout.valueColumns.enumerated() { chunks.append((.doubles(group.values[index]), name)) }
        return chunks
    }

    /// Encodes the column chunks a few at a time, side by side on the run's workers while
    /// it lends them (else one after the other), each as if it began the file, then writes
    /// them in order with their offsets moved to where they land: a chunk's bytes do not
    /// depend on where it lies, nor zstd's output on its context's history, so the file is
    /// the same for any number of lanes, with the encoding off the writing thread.
    private func writeChunks(
        _ chunks: [(values: ParquetColumnChunk.Values, name: String)]
    ) throws -> [Parquet.ColumnMetaData] {
        let lanes = Swift.max(1, Swift.min(work?.lanes ?? 1, Self.maximumLanes, chunks.count))
        while compressors.count < lanes {
            compressors.append(try ParquetPageCompressor(options.compression))
        }
        var columns: [Parquet.ColumnMetaData] = []
        for waveStart in stride(from: 0, to: chunks.count, by: lanes) {
            let wave = ChunkWave(
                chunks: Array(chunks[waveStart..<Swift.min(waveStart + lanes, chunks.count)]),
                compressors: compressors)
            if let work {
                work.run(wave.chunks.count) { lane in wave.encode(lane) }
            } else {
                for lane in wave.chunks.indices { wave.encode(lane) }
            }
            for lane in wave.chunks.indices {
                guard case .success(var (column, bytes)) = wave.results[lane] else {
                    if case .failure(let error) = wave.results[lane] { throw error }
                    throw SondeError(.io, "a Parquet column chunk was not encoded")
                }
                column.dataPageOffset += offset
                column.dictionaryPageOffset = column.dictionaryPageOffset.map { $0 + offset }
                try output.write(bytes)
                offset += Int64(bytes.count)
                bytes = []
                columns.append(column)
            }
        }
        return columns
    }
}

/// Column chunks encoded side by side, one per lane, each with its lane's compressor.
private final class ChunkWave: @unchecked Sendable {
    // @unchecked: lane i touches only chunks[i], compressors[i] and results[i], and the
    // writing thread reads the results after `ParallelWork.run` has returned.
    let chunks: [(values: ParquetColumnChunk.Values, name: String)]
    private let compressors: [ParquetPageCompressor]
    private(set) var results: [Result<(Parquet.ColumnMetaData, [UInt8]), any Error>?]

    init(chunks: [(values: ParquetColumnChunk.Values, name: String)], compressors: [ParquetPageCompressor]) {
        self.chunks = chunks
        self.compressors = compressors
        results = Array(repeating: nil, count: chunks.count)
    }

    func encode(_ lane: Int) {
        var bytes: [UInt8] = []
        let chunk = chunks[lane]
        results[lane] = Result {
            let column = try ParquetColumnChunk.write(
                chunk.values, name: chunk.name, offset: 0, compressor: compressors[lane], into: &bytes)
            return (column, bytes)
        }
    }
}
