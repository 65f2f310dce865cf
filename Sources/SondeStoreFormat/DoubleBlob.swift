import Foundation

/// `[Double]` as little-endian IEEE 754 binary64 bytes: exact (an export prints the same
/// digits as the run that computed them) and 8 bytes a value, a third of their text.
enum DoubleBlob {
    static func encode(_ values: [Double]) -> Data {
        var data = Data(capacity: values.count * 8)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Nil when the byte count is not a multiple of 8.
    static func decode(_ data: Data) -> [Double]? {
        guard data.count % 8 == 0 else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map { index in
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
            }
        }
    }
}
