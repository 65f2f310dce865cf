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

    /// Writes `contents` to `path` with mode 0600, atomically and durably (`AtomicFile`):
    /// whoever reads `path` sees the old contents or the new. A symbolic link at `path` is
    /// replaced, not followed.
    public static func write(_ contents: String, to path: String) throws {
        let file = try AtomicFile(replacing: path, mode: .exactly(0o600), followingLinks: false)
        do {
            try Array(contents.utf8).withUnsafeBytes { try SystemCall.writeAll(file.descriptor, $0) }
        } catch {
            file.abandon()
            throw SondeError(.io, "cannot write '\(path)': \(error)")
        }
        try file.commit(sync: true)
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

    private static func error(_ what: String) -> SondeError {
        SondeError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
