/// A numeric element type that containers (MAT, HDF5) store, and its conversion to Double.
enum NumericSampleType: String, Sendable {
    case int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32 = "single", float64 = "double"

    /// Bytes per value.
    var width: Int {
        switch self {
        case .int8, .uint8: 1
        case .int16, .uint16: 2
        case .int32, .uint32, .float32: 4
        case .int64, .uint64, .float64: 8
        }
    }

    /// Converts `count` native-endian values `stride` bytes apart into every `step`-th Double.
    ///
    /// Integers round to nearest as numpy's `astype(float64)` does (only 64-bit ones can round);
    /// a Float widens exactly (a signalling NaN is quieted, as numpy does).
    func convert(
        from source: UnsafeRawPointer, stride: Int, count: Int, into destination: UnsafeMutablePointer<Double>,
        step: Int
    ) {
        switch self {
        case .int8: Self.widen(Int8.self, source, stride, count, destination, step)
        case .int16: Self.widen(Int16.self, source, stride, count, destination, step)
        case .int32: Self.widen(Int32.self, source, stride, count, destination, step)
        case .int64: Self.widen(Int64.self, source, stride, count, destination, step)
        case .uint8: Self.widen(UInt8.self, source, stride, count, destination, step)
        case .uint16: Self.widen(UInt16.self, source, stride, count, destination, step)
        case .uint32: Self.widen(UInt32.self, source, stride, count, destination, step)
        case .uint64: Self.widen(UInt64.self, source, stride, count, destination, step)
        case .float32:
            for index in 0..<count {
                destination[index &* step] = Double(
                    source.loadUnaligned(fromByteOffset: index &* stride, as: Float.self))
            }
        case .float64:
            for index in 0..<count {
                destination[index &* step] = source.loadUnaligned(fromByteOffset: index &* stride, as: Double.self)
            }
        }
    }

    @inline(__always)
    private static func widen<T: FixedWidthInteger>(
        _: T.Type, _ source: UnsafeRawPointer, _ stride: Int, _ count: Int,
        _ destination: UnsafeMutablePointer<Double>, _ step: Int
    ) {
        for index in 0..<count {
            destination[index &* step] = Double(source.loadUnaligned(fromByteOffset: index &* stride, as: T.self))
        }
    }
}
