import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// A file's size and CRC-32C, read a chunk at a time: what a rerun and `sonde merge`
/// compare with the manifest before they trust an output, however large it is.
public struct FileChecksum: Sendable, Equatable {
    public var size: Int
    public var crc32c: UInt32

    public init(size: Int, crc32c: UInt32) {
        self.size = size
        self.crc32c = crc32c
    }

    /// Reads the whole file.
    /// - Returns: nil when the file cannot be opened (missing, or not readable).
    /// - Throws: `SondeError(.io)` naming the file when a read fails partway.
    public static func of(path: String) throws -> FileChecksum? {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.open(path, O_RDONLY | O_CLOEXEC)
        } catch {
            return nil
        }
        defer { close(descriptor) }
        var crc = CRC32C()
        var size = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let count: Int
            do {
                count = try SystemCall.readFully(descriptor, into: chunk)
            } catch {
                throw SondeError(.io, "cannot read '\(path)': \(error)")
            }
            if count == 0 { break }
            crc.update(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            size += count
        }
        return FileChecksum(size: size, crc32c: crc.value)
    }
}
