#if canImport(Glibc)
    import Glibc
#endif

/// A file's device and inode: the same folder reached by two paths is one identity.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of an open file, to check that a path opened again is still that file.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity in a `stat` already made.
    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
