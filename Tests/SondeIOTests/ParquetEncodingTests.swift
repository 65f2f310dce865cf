import Testing

@testable import SondeIO

/// The Thrift compact protocol and Parquet's encodings against bytes derived by hand from
/// Thrift's `thrift-compact-protocol.md` and Parquet's `Encodings.md`.
@Suite struct ParquetEncodingTests {
    private func thrift(_ body: (inout ThriftCompactWriter) -> Void) -> [UInt8] {
        var writer = ThriftCompactWriter()
        body(&writer)
        return writer.bytes
    }

    static let varints: [(UInt64, [UInt8])] = [
        (0, [0x00]), (1, [0x01]), (127, [0x7F]), (128, [0x80, 0x01]), (300, [0xAC, 0x02]),
        (16_384, [0x80, 0x80, 0x01]), (UInt64.max, [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]),
    ]

    @Test(arguments: varints)
    func varintIsLEB128(value: UInt64, bytes: [UInt8]) {
        #expect(thrift { $0.writeVarint(value) } == bytes)
    }

    static let zigzags: [(Int64, UInt64)] = [
        (0, 0), (-1, 1), (1, 2), (-2, 3), (2_147_483_647, 4_294_967_294), (-2_147_483_648, 4_294_967_295),
        (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
    ]

    @Test(arguments: zigzags)
    func zigzagInterleavesSigns(value: Int64, encoded: UInt64) {
        #expect(ThriftCompactWriter().zigzag(value) == encoded)
    }

    @Test func fieldHeadersUseDeltasUpTo15ThenTheLongForm() {
        let bytes = thrift { writer in
            writer.writeI32(field: 1, 2)  // delta 1, type 5: 0x15; zigzag(2) = 4
            writer.writeI64(field: 16, -1)  // delta 15, type 6: 0xF6; zigzag(-1) = 1
            writer.writeI32(field: 40, 0)  // delta 24: type byte 0x05, then zigzag(40) = 80
            writer.writeI32(field: 3, 1)  // going back: long form, zigzag(3) = 6
        }
        #expect(bytes == [0x15, 0x04, 0xF6, 0x01, 0x05, 0x50, 0x00, 0x05, 0x06, 0x02])
    }

    @Test func booleansLiveInTheFieldType() {
        #expect(
            thrift {
                $0.writeBool(field: 1, true); $0.writeBool(field: 2, false)
            } == [0x11, 0x12])
    }

    @Test func binaryIsLengthThenBytes() {
        #expect(thrift { $0.writeString(field: 4, "ab") } == [0x48, 0x02, 0x61, 0x62])
        #expect(thrift { $0.writeBinary(field: 1, [UInt8]()) } == [0x18, 0x00])
    }

    @Test func listsPutShortSizesInTheHeader() {
        // 2 × i32: 0x25 (size 2, type 5), zigzag(0) = 0, zigzag(8) = 16.
        #expect(thrift { $0.writeI32List(field: 2, [0, 8]) } == [0x29, 0x25, 0x00, 0x10])
        // 15 elements need the long form: 0xF5 then the size as a varint.
        let long = thrift { $0.writeI32List(field: 1, Array(repeating: 1, count: 15)) }
        #expect(Array(long.prefix(3)) == [0x19, 0xF5, 0x0F])
        #expect(long.count == 3 + 15)
        #expect(thrift { $0.writeStringList(field: 3, ["x"]) } == [0x39, 0x18, 0x01, 0x78])
    }

    @Test func structsNestWithTheirOwnFieldIDsAndAStop() {
        let bytes = thrift { writer in
            writer.writeStruct(field: 5) { inner in
                inner.writeI32(field: 1, 1)  // ids restart at 0 inside: delta 1
                inner.writeEmptyStruct(field: 2)
            }
            writer.writeI32(field: 6, 1)  // delta 1 from the struct's field 5
            writer.writeStructList(field: 7, [3, 4]) { element, value in element.writeI32(field: 1, value) }
            writer.writeStop()
        }
        #expect(
            bytes == [
                0x5C, 0x15, 0x02, 0x1C, 0x00, 0x00,
                0x15, 0x02,
                0x19, 0x2C, 0x15, 0x06, 0x00, 0x15, 0x08, 0x00,
                0x00,
            ])
    }

    @Test func pageHeaderOfADataPage() {
        let header = Parquet.PageHeader(
            type: .dataPage, uncompressedPageSize: 16, compressedPageSize: 10, numValues: 2, encoding: .plain)
        // type 0, sizes 16 and 10 (zigzag 32, 20), data_page_header (field 5, delta 2): num_values 2,
        // encoding PLAIN, level encodings RLE (3, zigzag 6).
        #expect(
            header.serialized() == [
                0x15, 0x00, 0x15, 0x20, 0x15, 0x14, 0x2C, 0x15, 0x04, 0x15, 0x00, 0x15, 0x06, 0x15, 0x06, 0x00, 0x00,
            ])
    }

    static let widths: [(Int, Int)] = [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (256, 8), (257, 9)]

    @Test(arguments: widths)
    func dictionaryIndexWidth(entries: Int, bits: Int) {
        #expect(ParquetEncoding.bitWidth(forDictionaryOf: entries) == bits)
    }

    @Test func alternatingChannelsAreBitPacked() {
        var bytes: [UInt8] = []
        ParquetEncoding.appendRLEBitPackedHybrid([0, 1, 0, 1], bitWidth: 1, to: &bytes)
        // One group (header 1 << 1 | 1), padded with zeros: bits 1 and 3 set.
        #expect(bytes == [0x03, 0x0A])
    }

    @Test func longRunsAreRunLengthEncoded() {
        var bytes: [UInt8] = []
        ParquetEncoding.appendRLEBitPackedHybrid(Array(repeating: 5, count: 10), bitWidth: 3, to: &bytes)
        #expect(bytes == [0x14, 0x05])  // 10 << 1, then the value in one byte
        bytes.removeAll()
        ParquetEncoding.appendRLEBitPackedHybrid(Array(repeating: 0, count: 7), bitWidth: 1, to: &bytes)
        #expect(bytes == [0x03, 0x00])  // 7 equal values are not worth a run: one packed group
    }

    @Test func aLiteralBorrowsFromTheNextRunToFillItsGroup() {
        var bytes: [UInt8] = []
        ParquetEncoding.appendRLEBitPackedHybrid([1, 2, 3] + Array(repeating: 7, count: 10), bitWidth: 3, to: &bytes)
        // Group 1, 2, 3, 7, 7, 7, 7, 7 at 3 bits LSB first: 0xD1 0xFE 0xFF; then a run of 5 sevens.
        #expect(bytes == [0x03, 0xD1, 0xFE, 0xFF, 0x0A, 0x07])
    }

    @Test func byteStreamSplitGroupsByteK() {
        var bytes: [UInt8] = []
        // 1.0 = 0x3FF0_0000_0000_0000, -2.0 = 0xC000_0000_0000_0000: streams 0-5 are zeros,
        // stream 6 holds F0 00, stream 7 holds 3F C0.
        [1.0, -2.0].withUnsafeBufferPointer { ParquetEncoding.appendByteStreamSplit($0, to: &bytes) }
        #expect(bytes == Array(repeating: 0, count: 12) + [0xF0, 0x00, 0x3F, 0xC0])
    }

    @Test func zeroBoundsFollowTheSpecification() throws {
        let positive = try #require(ParquetColumnChunk.doubleStatistics([0.0, 1.5]))
        #expect(positive.minValue == ParquetColumnChunk.littleEndianBytes((-0.0).bitPattern))
        #expect(positive.maxValue == ParquetColumnChunk.littleEndianBytes(1.5.bitPattern))
        let negative = try #require(ParquetColumnChunk.doubleStatistics([-2.0, -0.0]))
        #expect(negative.maxValue == ParquetColumnChunk.littleEndianBytes(0.0.bitPattern))
        #expect(negative.nanCount == 0)
        let withNaN = try #require(ParquetColumnChunk.doubleStatistics([.nan, 3, -1]))
        #expect(withNaN.nanCount == 1)
        #expect(withNaN.minValue == ParquetColumnChunk.littleEndianBytes((-1.0).bitPattern))
    }
}
