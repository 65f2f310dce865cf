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

    /// Whether opening the input and its first read are short and never wait on another
    /// process, so the pipeline may do them on its own threads (`Inputs.opensQuickly`): a
    /// regular file small enough to be read whole (`InMemorySoundFile`'s limit), or a
    /// regular file of raw samples or sound, whose opening reads a header at most. Not a
    /// larger CSV file, whose opening may read it all for its time column.
    public func opensQuickly(options: SampleSourceOptions) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        if Int(status.st_size) <= InMemorySoundFile.sizeLimit { return true }
        switch try? SampleSources.kind(of: path, options: options) {
        case .raw, .soundFile: return true
        case .csv, nil: return false
        }
    }
}
