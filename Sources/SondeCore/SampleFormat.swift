/// Encodings of raw interleaved sample files. Integers are scaled to [-1, 1) exactly
/// (by 1/2^15 and 1/2^31), as docs/features.md section 1 requires.
public enum SampleFormat: String, CaseIterable, Sendable, Codable {
    case f32le, f64le, i16le, i32le

    /// Bytes one sample occupies in the file.
    public var byteWidth: Int {
        switch self {
        case .i16le: 2
        case .f32le, .i32le: 4
        case .f64le: 8
        }
    }
}
