#if canImport(Glibc)
    import Glibc
#endif

/// One input of a run: where it is, and the name its records carry in the `file` column
/// (its path relative to the folder argument that named it, else the path as given).
public struct SampleInput: Sendable, Equatable {
    public var path: String
    public var name: String
    /// Why the input cannot be opened although the walk found it (a file name that is
    /// not UTF-8): opening it fails with this message, so `--keep-going` skips it.
    public var unopenable: String?

    public init(path: String, name: String, unopenable: String? = nil) {
        self.path = path
        self.name = name
        self.unopenable = unopenable
    }

    /// Whether the input is a regular file small enough to be read whole in one call
    /// (`InMemorySoundFile`'s limit): opening and reading it never waits on another
    /// process, so the pipeline may do it on its own threads (`Inputs.opensQuickly`).
    public var isSmallRegularFile: Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
            && Int(status.st_size) <= InMemorySoundFile.sizeLimit
    }
}
