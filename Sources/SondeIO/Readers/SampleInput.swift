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
    /// Known to be a regular file (the folder walk read its type from the folder); false
    /// when unknown.
    public var isRegularFile: Bool

    public init(path: String, name: String, unopenable: String? = nil, isRegularFile: Bool = false) {
        self.path = path
        self.name = name
        self.unopenable = unopenable
        self.isRegularFile = isRegularFile
    }

    /// Whether opening the input and its first read are short and never wait on another
    /// process, so the pipeline may do them on its own threads (`Inputs.opensQuickly`): a
    /// regular file small enough to be read whole (`InMemorySoundFile`'s limit), or a
    /// regular file of raw samples or sound, whose opening reads a header at most. Not a
    /// larger CSV file, whose opening may read it all for its time column.
    public func opensQuickly(options: SampleSourceOptions) -> Bool {
        // Sound or raw samples in a file the walk found regular: quick at any size, no stat
        // (one per input was 4% of a run over 20,000 short clips, perf).
        if isRegularFile, Self.readsInParts(try? SampleSources.kind(of: path, options: options)) { return true }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        if Int(status.st_size) <= InMemorySoundFile.sizeLimit { return true }
        return Self.readsInParts(try? SampleSources.kind(of: path, options: options))
    }

    /// Whether opening an input of this kind reads a header at most (not a CSV file's time
    /// column).
    private static func readsInParts(_ kind: SampleSources.Kind?) -> Bool {
        switch kind {
        case .raw, .soundFile, .container: true
        case .csv, nil: false
        }
    }
}
