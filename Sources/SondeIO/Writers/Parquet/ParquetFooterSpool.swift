import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// The footer's row groups, in memory up to `memoryLimit` bytes and beyond that in an
/// unnamed temporary file: a file of 100,000 one-row groups has a footer of tens of MB,
/// which the writer must not hold (it took 1.13 GB of RSS as structs).
struct ParquetFooterSpool: ~Copyable {
    private(set) var count = 0
    private var buffer: [UInt8] = []
    private var spill: Int32 = -1
    private var spilledBytes = 0
    private let memoryLimit: Int

    init(memoryLimit: Int = 1 << 20) {
        self.memoryLimit = memoryLimit
    }

    deinit {
        if spill >= 0 { close(spill) }
    }

    /// Adds one row group's serialized element.
    mutating func append(_ element: [UInt8]) throws {
        buffer += element
        count += 1
        if buffer.count >= memoryLimit { try spillBuffer() }
    }

    /// Writes every element, in order, to `output`.
    mutating func copy(to output: OutputFile) throws {
        if spill >= 0 {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var offset = 0
            while offset < spilledBytes {
                let got = try chunk.withUnsafeMutableBytes { raw in
                    try SystemCall.retryingInterrupts("cannot read the Parquet footer's temporary file") {
                        pread(spill, raw.baseAddress, Swift.min(raw.count, spilledBytes - offset), off_t(offset))
                    }
                }
                guard got > 0 else { throw SondeError(.io, "the Parquet footer's temporary file ended early") }
                try output.write(chunk[..<got])
                offset += got
            }
        }
        try output.write(buffer)
    }

    private mutating func spillBuffer() throws {
        if spill < 0 { spill = try Self.openTemporaryFile() }
        do {
            try buffer.withUnsafeBytes { try SystemCall.writeAll(spill, $0) }
        } catch {
            throw SondeError(.io, "cannot write the Parquet footer's temporary file: \(error)")
        }
        spilledBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// A file in `$TMPDIR` (or /tmp) removed at once: nothing is left whatever ends the run.
    private static func openTemporaryFile() throws -> Int32 {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((folder + "/sonde-parquet-footer-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { name in
            name.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw SondeError(
                .io,
                "cannot create a temporary file in \(folder) for the Parquet footer: \(SystemCall.describe(errno)); set TMPDIR to a writable folder"
            )
        }
        template.withUnsafeBufferPointer { name in _ = name.baseAddress.map { unlink($0) } }
        return descriptor
    }
}
