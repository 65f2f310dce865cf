package import Foundation

/// `[Double]` as little-endian IEEE 754 binary64 bytes: exact (an export prints the same
/// digits as the run that computed them) and 8 bytes a value, a third of their text.
/// SQLite keeps them as a BLOB, PostgreSQL as a `bytea`: the same bytes on both engines.
package enum DoubleBlob {
    package static func encode(_ values: [Double]) -> Data {
        var data = Data(count: values.count * 8)
        data.withUnsafeMutableBytes { raw in
            for (index, value) in values.enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
        }
        return data
    }

    /// Nil when the byte count is not a multiple of 8.
    package static func decode(_ data: Data) -> [Double]? {
        data.withUnsafeBytes { decode($0) }
    }

    /// Nil when the byte count is not a multiple of 8.
    package static func decode(_ raw: UnsafeRawBufferPointer) -> [Double]? {
        guard raw.count % 8 == 0 else { return nil }
        let count = raw.count / 8
        return [Double](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count {
                values[index] = Double(
                    bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
            }
            initialized = count
        }
    }
}
