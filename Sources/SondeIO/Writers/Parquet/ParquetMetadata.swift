/// The structures of the Parquet format's `parquet.thrift` that sonde writes, with the
/// specification's names and field ids, and their compact-protocol serialisation.
///
/// Only the fields sonde sets are modelled: a flat schema of required columns, one
/// (optional) dictionary page and one data page v1 per column chunk, chunk statistics.
enum Parquet {
    /// `Type`: physical storage of a column.
    enum PhysicalType: Int32 {
        case int64 = 2
        case double = 5
        case byteArray = 6
    }

    /// `ConvertedType`, the deprecated annotation kept beside `LogicalType` for old readers.
    enum ConvertedType: Int32 {
        case utf8 = 0
        case timestampMillis = 9
    }

    /// `LogicalType`, the union of annotations; sonde uses two members.
    enum LogicalType {
        /// `STRING` (field 1): UTF-8 text in a BYTE_ARRAY.
        case string
        /// `TIMESTAMP` (field 8) with `isAdjustedToUTC = true`, unit `MILLIS`: an INT64 of
        /// milliseconds since 1970-01-01T00:00:00Z.
        case timestampMillisUTC
    }

    enum Encoding: Int32 {
        case plain = 0
        case rle = 3
        case rleDictionary = 8
        case byteStreamSplit = 9
    }

    enum CompressionCodec: Int32 {
        case uncompressed = 0
        case zstd = 6
    }

    enum PageType: Int32 {
        case dataPage = 0
        case dictionaryPage = 2
    }

    /// `FieldRepetitionType.REQUIRED`: every column of a record always has a value.
    static let required: Int32 = 0

    /// The bytes that open and close a Parquet file.
    static let magic: [UInt8] = Array("PAR1".utf8)

    struct SchemaElement {
        var name: String
        var type: PhysicalType?
        var numChildren: Int32?
        var convertedType: ConvertedType?
        var logicalType: LogicalType?

        /// The root group of a flat schema: no type, no repetition, `numChildren` leaves.
        static func root(children: Int) -> SchemaElement {
            SchemaElement(name: "schema", type: nil, numChildren: Int32(children))
        }

        func write(to writer: inout ThriftCompactWriter) {
            if let type { writer.writeI32(field: 1, type.rawValue) }
            if type != nil { writer.writeI32(field: 3, Parquet.required) }
            writer.writeString(field: 4, name)
            if let numChildren { writer.writeI32(field: 5, numChildren) }
            if let convertedType { writer.writeI32(field: 6, convertedType.rawValue) }
            if let logicalType {
                writer.writeStruct(field: 10) { union in
                    switch logicalType {
                    case .string:
                        union.writeEmptyStruct(field: 1)
                    case .timestampMillisUTC:
                        union.writeStruct(field: 8) { timestamp in
                            timestamp.writeBool(field: 1, true)
                            timestamp.writeStruct(field: 2) { unit in unit.writeEmptyStruct(field: 1) }
                        }
                    }
                }
            }
        }
    }

    /// Column chunk statistics: `min_value`/`max_value` PLAIN-encoded (byte arrays without
    /// their length prefix), `null_count` always 0 (every column is required), and
    /// `nan_count` 0 for doubles (features never produce NaN).
    struct Statistics {
        var minValue: [UInt8]
        var maxValue: [UInt8]
        var nanCount: Int64?

        func write(to writer: inout ThriftCompactWriter) {
            writer.writeI64(field: 3, 0)
            writer.writeBinary(field: 5, maxValue)
            writer.writeBinary(field: 6, minValue)
            writer.writeBool(field: 7, true)
            writer.writeBool(field: 8, true)
            if let nanCount { writer.writeI64(field: 9, nanCount) }
        }
    }

    struct PageHeader {
        var type: PageType
        var uncompressedPageSize: Int32
        var compressedPageSize: Int32
        /// `num_values` and `encoding` of a data page (v1) or a dictionary page.
        var numValues: Int32
        var encoding: Encoding

        /// The header as it precedes the page's bytes in the file.
        func serialized() -> [UInt8] {
            var writer = ThriftCompactWriter()
            writer.writeI32(field: 1, type.rawValue)
            writer.writeI32(field: 2, uncompressedPageSize)
            writer.writeI32(field: 3, compressedPageSize)
            switch type {
            case .dataPage:
                writer.writeStruct(field: 5) { page in
                    page.writeI32(field: 1, numValues)
                    page.writeI32(field: 2, encoding.rawValue)
                    // Levels: none are written for required flat columns, but the
                    // fields are required; RLE is what every writer declares.
                    page.writeI32(field: 3, Encoding.rle.rawValue)
                    page.writeI32(field: 4, Encoding.rle.rawValue)
                }
            case .dictionaryPage:
                writer.writeStruct(field: 7) { page in
                    page.writeI32(field: 1, numValues)
                    page.writeI32(field: 2, encoding.rawValue)
                }
            }
            writer.writeStop()
            return writer.bytes
        }
    }

    struct ColumnMetaData {
        var type: PhysicalType
        var encodings: [Encoding]
        var pathInSchema: [String]
        var codec: CompressionCodec
        var numValues: Int64
        var totalUncompressedSize: Int64
        var totalCompressedSize: Int64
        var dataPageOffset: Int64
        var dictionaryPageOffset: Int64?
        var statistics: Statistics?

        func write(to writer: inout ThriftCompactWriter) {
            writer.writeI32(field: 1, type.rawValue)
            writer.writeI32List(field: 2, encodings.map(\.rawValue))
            writer.writeStringList(field: 3, pathInSchema)
            writer.writeI32(field: 4, codec.rawValue)
            writer.writeI64(field: 5, numValues)
            writer.writeI64(field: 6, totalUncompressedSize)
            writer.writeI64(field: 7, totalCompressedSize)
            writer.writeI64(field: 9, dataPageOffset)
            if let dictionaryPageOffset { writer.writeI64(field: 11, dictionaryPageOffset) }
            if let statistics { writer.writeStruct(field: 12) { statistics.write(to: &$0) } }
        }
    }

    struct RowGroup {
        var columns: [ColumnMetaData]
        var numRows: Int64
        /// Offset of the row group's first page.
        var fileOffset: Int64
        /// The row group's index in the file; optional, left out past `Int16.max`.
        var ordinal: Int16?

        func write(to writer: inout ThriftCompactWriter) {
            writer.writeStructList(field: 1, columns) { chunk, column in
                // ColumnChunk: file_offset 0 (the spec's value when no metadata is written
                // outside the footer), then meta_data.
                chunk.writeI64(field: 2, 0)
                chunk.writeStruct(field: 3) { column.write(to: &$0) }
            }
            writer.writeI64(field: 2, columns.reduce(0) { $0 + $1.totalUncompressedSize })
            writer.writeI64(field: 3, numRows)
            writer.writeI64(field: 5, fileOffset)
            writer.writeI64(field: 6, columns.reduce(0) { $0 + $1.totalCompressedSize })
            if let ordinal { writer.writeI16(field: 7, ordinal) }
        }

        /// The row group as an element of the footer's list: its fields and the stop byte.
        /// Kept as bytes, not as this struct: a struct of arrays per column took 11 KB of
        /// memory per row group, the Thrift bytes about 60 per column.
        func serializedElement() -> [UInt8] {
            var writer = ThriftCompactWriter()
            write(to: &writer)
            writer.writeStop()
            return writer.bytes
        }
    }

    struct FileMetaData {
        var schema: [SchemaElement]
        var numRows: Int64
        var rowGroupCount: Int
        var keyValueMetadata: [(key: String, value: String)]
        var createdBy: String

        /// The footer (what follows the last column chunk, before its length and `PAR1`)
        /// around its row groups: `prefix`, then each row group's `serializedElement()`,
        /// then `suffix`. The row groups are not held here, so a writer can keep them on
        /// disk however many there are.
        func serialized() -> (prefix: [UInt8], suffix: [UInt8]) {
            var writer = ThriftCompactWriter()
            // Version 2: logical types and dictionary pages as format 2.x writers use them.
            writer.writeI32(field: 1, 2)
            writer.writeStructList(field: 2, schema) { element, schema in schema.write(to: &element) }
            writer.writeI64(field: 3, numRows)
            writer.writeFieldHeader(4, .list)
            writer.writeListHeader(count: rowGroupCount, elementType: .struct)
            let prefixCount = writer.bytes.count
            if !keyValueMetadata.isEmpty {
                writer.writeStructList(field: 5, keyValueMetadata) { pair, entry in
                    pair.writeString(field: 1, entry.key)
                    pair.writeString(field: 2, entry.value)
                }
            }
            writer.writeString(field: 6, createdBy)
            // column_orders: TYPE_ORDER for every leaf, which tells readers that
            // min_value/max_value follow the type's order and may be used to skip.
            writer.writeStructList(field: 7, Array(schema.dropFirst())) { order, _ in order.writeEmptyStruct(field: 1) }
            writer.writeStop()
            return (Array(writer.bytes[..<prefixCount]), Array(writer.bytes[prefixCount...]))
        }
    }
}
