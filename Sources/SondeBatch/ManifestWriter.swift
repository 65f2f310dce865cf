import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Appends lines to a manifest, each with one `write(2)`.
public final class ManifestWriter {
    private let descriptor: Int32
    private let path: String

    /// Opens (creating) `path` for appending. A file that does not end with a line's end
    /// (torn by a kill) gets one first, so this run's first line is a line of its own.
    public init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw SondeError(.io, "cannot write the manifest '\(path)': \(SystemCall.describe(errno))")
        }
        var status = stat()
        var last: UInt8 = 10
        if fstat(descriptor, &status) == 0, status.st_size > 0, pread(descriptor, &last, 1, status.st_size - 1) == 1,
            last != 10
        {
            try write([10])
        }
    }

    deinit { close(descriptor) }

    public func append(_ value: some ManifestLine) throws {
        var line: [UInt8] = []
        value.json.write(into: &line)
        line.append(10)
        try write(line)
    }

    private func write(_ line: [UInt8]) throws {
        let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw SondeError(.io, "cannot write the manifest '\(path)': \(SystemCall.describe(errno))")
        }
    }
}
