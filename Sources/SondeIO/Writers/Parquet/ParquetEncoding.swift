/// The value encodings of the Parquet format's `Encodings.md` that sonde writes.
enum ParquetEncoding {
    /// PLAIN for INT64 and DOUBLE: each value's 8 bytes, little-endian.
    static func appendPlain<T: FixedWidthInteger>(_ values: UnsafeBufferPointer<T>, to bytes: inout [UInt8]) {
        for value in values {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }

    /// PLAIN for DOUBLE: the IEEE 754 bits, little-endian, so every value reads back bit for bit.
    static func appendPlain(_ values: UnsafeBufferPointer<Double>, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: values.count * 8))
        bytes.withUnsafeMutableBytes { raw in
            let out = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            for (index, value) in values.enumerated() {
                out.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
        }
    }

    /// BYTE_STREAM_SPLIT for DOUBLE: byte k of every value, for k = 0...7, one stream
    /// after the other. The same bits as PLAIN, reordered so that the signs and exponents,
    /// which vary little between windows, sit together where zstd finds them.
    static func appendByteStreamSplit(_ values: UnsafeBufferPointer<Double>, to bytes: inout [UInt8]) {
        let start = bytes.count
        let count = values.count
        bytes.append(contentsOf: repeatElement(0, count: count * 8))
        bytes.withUnsafeMutableBufferPointer { buffer in
            let out = UnsafeMutableBufferPointer(rebasing: buffer[start...])
            for (index, value) in values.enumerated() {
                let bits = value.bitPattern
                for stream in 0..<8 { out[stream * count + index] = UInt8(truncatingIfNeeded: bits >> (8 * stream)) }
            }
        }
    }

    /// PLAIN for BYTE_ARRAY: a 4-byte little-endian length, then the bytes.
    static func appendPlain(_ value: [UInt8], to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(value.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value)
    }

    /// Bits needed for dictionary indices below `count`; at least 1, which every reader
    /// accepts (a width of 0 for a one-entry dictionary is legal but rarely written).
    static func bitWidth(forDictionaryOf count: Int) -> Int {
        max(1, Int.bitWidth - (count - 1).leadingZeroBitCount)
    }

    /// The RLE/bit-packing hybrid without a length prefix, as an RLE_DICTIONARY data page
    /// holds it after its bit-width byte.
    ///
    /// Runs of 8 or more equal values become RLE runs (a file's name over a whole row
    /// group is one run); the rest is bit-packed in groups of 8, LSB first, the last group
    /// padded with zeros (the page's `num_values` says where the values end). A literal
    /// stretch borrows the first values of the run after it to fill its last group, so no
    /// group is padded but the final one.
    static func appendRLEBitPackedHybrid(_ values: [UInt32], bitWidth: Int, to bytes: inout [UInt8]) {
        var literal: [UInt32] = []
        var index = 0
        while index < values.count {
            var end = index + 1
            while end < values.count && values[end] == values[index] { end += 1 }
            if end - index >= 8 {
                var runStart = index
                let padding = (8 - literal.count % 8) % 8
                if !literal.isEmpty {
                    literal.append(contentsOf: repeatElement(values[index], count: padding))
                    runStart += padding
                    appendBitPacked(literal, bitWidth: bitWidth, to: &bytes)
                    literal.removeAll(keepingCapacity: true)
                }
                appendRun(value: values[index], count: end - runStart, bitWidth: bitWidth, to: &bytes)
            } else {
                literal.append(contentsOf: values[index..<end])
            }
            index = end
        }
        if !literal.isEmpty { appendBitPacked(literal, bitWidth: bitWidth, to: &bytes) }
    }

    /// An RLE run: header `count << 1`, then the value in ceil(bitWidth / 8) bytes, little-endian.
    private static func appendRun(value: UInt32, count: Int, bitWidth: Int, to bytes: inout [UInt8]) {
        appendULEB128(UInt64(count) << 1, to: &bytes)
        for byte in 0..<((bitWidth + 7) / 8) { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    /// A bit-packed run: header `groups << 1 | 1`, then the values `bitWidth` bits each,
    /// LSB first, zero-padded to whole groups of 8.
    private static func appendBitPacked(_ values: [UInt32], bitWidth: Int, to bytes: inout [UInt8]) {
        let groups = (values.count + 7) / 8
        appendULEB128(UInt64(groups) << 1 | 1, to: &bytes)
        var accumulator: UInt64 = 0
        var bits = 0
        for index in 0..<(groups * 8) {
            let value = index < values.count ? UInt64(values[index]) : 0
            accumulator |= value << bits
            bits += bitWidth
            while bits >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        // groups * 8 * bitWidth is a whole number of bytes: nothing is left over.
        assert(bits == 0)
    }

    static func appendULEB128(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
