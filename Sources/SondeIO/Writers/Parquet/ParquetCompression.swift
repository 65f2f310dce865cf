import CZstd
import SondeCore

/// How Parquet pages are compressed (`--compression`).
public enum ParquetCompression: String, CaseIterable, Sendable {
    /// Pages as encoded: the fastest to write and read.
    case none
    /// Zstandard (the format's `ZSTD` codec, libzstd), level 1; doubles byte-stream-split.
    case zstd

    var codec: Parquet.CompressionCodec {
        switch self {
        case .none: .uncompressed
        case .zstd: .zstd
        }
    }
}
