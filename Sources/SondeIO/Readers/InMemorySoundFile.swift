import CSndfile
import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// A short sound file read whole, handed to libsndfile through its virtual I/O: one read
/// for the file instead of libsndfile's small reads and seeks (14 read and 12 lseek
/// calls per two-second WAV clip, 0.2 s of system time over 2,000 clips).
final class InMemorySoundFile {
    /// Files up to this size are read whole; longer ones are streamed from the descriptor.
    static let sizeLimit = 4 << 20

    let bytes: UnsafeMutableRawBufferPointer
    private var position = 0

    /// Reads all `size` bytes of `descriptor` from its start; nil when it is larger than
    /// `sizeLimit` or cannot be read whole (the caller then streams it).
    init?(descriptor: Int32, size: Int) {
        guard size > 0, size <= Self.sizeLimit else { return nil }
        bytes = .allocate(byteCount: size, alignment: 16)
        guard (try? SystemCall.readFully(descriptor, at: 0, into: bytes)) == size else {
            bytes.deallocate()
            return nil
        }
    }

    deinit { bytes.deallocate() }

    /// Opens the bytes with libsndfile, as `sf_open_fd` opens a file.
    func open(info: inout SF_INFO) -> OpaquePointer? {
        var io = SF_VIRTUAL_IO(
            get_filelen: { data in sf_count_t(InMemorySoundFile.from(data).bytes.count) },
            seek: { offset, whence, data in InMemorySoundFile.from(data).seek(Int(offset), whence: whence) },
            read: { destination, count, data in InMemorySoundFile.from(data).read(into: destination, count: Int(count))
            },
            write: { _, _, _ in 0 },
            tell: { data in sf_count_t(InMemorySoundFile.from(data).position) }
        )
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> InMemorySoundFile {
        // libsndfile hands back the pointer `open` gave it; the source keeps `self` alive.
        guard let data else { preconditionFailure("libsndfile passed no user data") }
        return Unmanaged<InMemorySoundFile>.fromOpaque(data).takeUnretainedValue()
    }

    private func seek(_ offset: Int, whence: Int32) -> sf_count_t {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: return -1
        }
        let target = base + offset
        guard target >= 0 else { return -1 }
        position = target
        return sf_count_t(position)
    }

    private func read(into destination: UnsafeMutableRawPointer?, count: Int) -> sf_count_t {
        guard let destination, count > 0, position < bytes.count, let source = bytes.baseAddress else { return 0 }
        let copied = Swift.min(count, bytes.count - position)
        destination.copyMemory(from: source + position, byteCount: copied)
        position += copied
        return sf_count_t(copied)
    }
}
