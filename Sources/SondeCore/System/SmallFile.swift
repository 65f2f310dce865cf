#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the small text files sonde keeps or is pointed at (the session token, the
/// pairing, device profiles) with a type and size limit: a symlink to `/dev/zero` would
/// otherwise grow the reader without end, and a FIFO would block it forever.
public enum SmallFile {
    /// The bytes of the regular file at `path` (symlinks followed), or nil when it does not
    /// exist.
    ///
    /// Opened non-blocking, so a FIFO or device returns at once and is refused by type.
    /// - Parameters:
    ///   - limit: the largest size accepted, in bytes.
    ///   - what: what the file is, for messages ("session file", "device profile").
    /// - Throws: `SondeError(.io)` for a file that is not regular, larger than `limit` (it
    ///   is never read past `limit + 1` bytes, even if it grows), or unreadable.
    public static func read(_ path: String, limit: Int, what: String) throws -> [UInt8]? {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        } catch  where error.code == ENOENT {
            return nil
        } catch {
            throw failure(path, what, reason: error.description)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure(path, what, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw failure(path, what, reason: "not a regular file; expected a small text file")
        }
        guard Int(status.st_size) <= limit else {
            throw failure(path, what, reason: "\(status.st_size) bytes; expected at most \(limit)")
        }
        var contents = [UInt8](repeating: 0, count: limit + 1)
        let count: Int
        do {
            count = try contents.withUnsafeMutableBytes { try SystemCall.readFully(descriptor, into: $0) }
        } catch {
            throw failure(path, what, reason: "\(error)")
        }
        guard count <= limit else { throw failure(path, what, reason: "grew beyond \(limit) bytes while read") }
        return Array(contents[0..<count])
    }

    private static func failure(_ path: String, _ what: String, reason: String) -> SondeError {
        SondeError(.io, "cannot read the \(what) '\(path)': \(reason)")
    }
}
