import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files only their owner may read: the session token, reset messages. Every system call
/// that can fail goes through `check`, which names the path and the reason.
public enum PrivateFiles {
    /// Creates `path` and its missing parents with mode 0700 (existing ones are left as they are).
    /// - Throws: `SondeError(.io)`.
    public static func makeDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw error("cannot create directory '\(prefix)'")
            }
        }
    }

    /// Writes `contents` to `path` with mode 0600, atomically: a temporary file in the same
    /// directory, fsync, rename. Whoever reads `path` sees the old contents or the new.
    public static func write(_ contents: String, to path: String) throws {
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        // mkstemp creates the file 0600 whatever the umask.
        let fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw error("cannot write '\(path)'") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            defer { close(fd) }
            try check(fchmod(fd, 0o600), "cannot set the mode of '\(temporary)'")
            var bytes = Array(contents.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { raw in
                    Glibc.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw error("cannot write '\(temporary)'")
                }
                offset += written
            }
            try check(fsync(fd), "cannot write '\(temporary)'")
        } catch {
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let failure = error("cannot create '\(path)'")
            unlink(temporary)
            throw failure
        }
    }

    /// The file's contents, or nil if it does not exist: a regular file of at most
    /// `limit` bytes (`SmallFile`), so a symlink to `/dev/zero` or a FIFO in its place is
    /// an error instead of an endless read or a hang.
    public static func read(_ path: String, limit: Int = 4096, what: String = "session file") throws -> String? {
        try SmallFile.read(path, limit: limit, what: what).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Deletes `path`; a missing file is not an error.
    public static func remove(_ path: String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw error("cannot delete '\(path)'") }
    }

    private static func check(_ result: Int32, _ what: @autoclosure () -> String) throws {
        if result != 0 { throw error(what()) }
    }

    private static func error(_ what: String) -> SondeError {
        SondeError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
