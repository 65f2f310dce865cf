import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where records go: standard output, a device or FIFO, a file that appears only when
/// the run succeeds (`AtomicFile`: a failed, interrupted or killed run leaves no file
/// behind and never replaces an existing one with a partial one), or a `ByteSink` (a
/// download). Bytes are buffered (1 MiB) and written with `write(2)` or to the sink.
public final class OutputFile {
    /// When buffered bytes reach the descriptor.
    public enum FlushPolicy: Sendable {
        /// When the buffer fills, and at `commit()`: files and batch runs.
        case whenFull
        /// After every record: live output that another program reads as it comes.
        case everyRecord
    }

    public let path: String?
    /// What error messages call the destination.
    private let displayName: String
    public let flushPolicy: FlushPolicy
    private let descriptor: Int32
    /// The file `commit()` names: nil for standard output, devices and sinks.
    private let atomicFile: AtomicFile?
    /// Takes the flushed bytes instead of `descriptor` (which is then -1).
    private let sink: (any ByteSink)?
    private var buffer: [UInt8] = []
    private var finished = false
    /// Whether `commit()` waits for the data to reach the disk (`fsync`).
    private var syncsOnCommit = true
    private static let capacity = 1 << 20
    /// Bytes written to the descriptor so far, and their CRC-32C when `checksummed`: a
    /// dataset run records both in its manifest without reading the output again.
    public private(set) var bytesWritten = 0
    public private(set) var checksum: CRC32C?
    /// Bytes appended but not yet written: `bytesWritten + bufferedCount` is the output's length so far.
    public var bufferedCount: Int { buffer.count }

    /// Writes to standard output.
    public init(standardOutputFlushing flushPolicy: FlushPolicy) {
        path = nil
        displayName = "standard output"
        atomicFile = nil
        sink = nil
        descriptor = 1
        self.flushPolicy = flushPolicy
        buffer.reserveCapacity(Self.capacity)
    }

    /// Writes to /dev/null: a real exporter whose bytes go nowhere, for benchmarks.
    public init(discarding: Void = ()) throws {
        path = nil
        displayName = "/dev/null"
        atomicFile = nil
        sink = nil
        flushPolicy = .whenFull
        do {
            descriptor = try SystemCall.open("/dev/null", O_WRONLY | O_CLOEXEC)
        } catch {
            throw SondeError(.io, "cannot open /dev/null: \(error)")
        }
        buffer.reserveCapacity(Self.capacity)
    }

    /// Opens an unnamed file in `path`'s folder; nothing appears at `path` until `commit()`.
    /// An existing file keeps its permissions, and a symbolic link is followed (the file
    /// it names is replaced, not the link).
    /// - Parameter syncOnCommit: false when the caller makes many outputs durable at once
    ///   (`syncfs`): an `fsync` per file took a dataset run of 20,000 clips from 4 to 46 s.
    /// - Throws: `SondeError(.io)` when the folder is missing or not writable.
    /// - Parameter checksummed: keep a CRC-32C of the bytes written (`checksum`).
    public init(
        atomicallyReplacing path: String, flushPolicy: FlushPolicy = .whenFull, syncOnCommit: Bool = true,
        checksummed: Bool = false
    ) throws {
        checksum = checksummed ? CRC32C() : nil
        self.flushPolicy = flushPolicy
        syncsOnCommit = syncOnCommit
        displayName = path
        sink = nil
        buffer.reserveCapacity(Self.capacity)
        var status = stat()
        let exists = stat(path, &status) == 0
        // A device, FIFO or socket (`-o /dev/null`, `-o /dev/stdout`) is written in place:
        // renaming a temporary file over it would replace the device with a plain file.
        if exists, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            do {
                descriptor = try SystemCall.open(path, O_WRONLY | O_CLOEXEC)
            } catch {
                throw SondeError(.io, "cannot write output '\(path)': \(error)")
            }
            self.path = nil
            atomicFile = nil
            return
        }
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            throw SondeError(.io, "cannot write output '\(path)': it is a folder; expected a file name")
        }
        self.path = path
        let file = try AtomicFile(replacing: path, mode: .asExistingOrDefault, followingLinks: true)
        atomicFile = file
        descriptor = file.descriptor
    }

    /// Hands each flushed chunk to `sink`; `commit()` finishes it, `abandon()` abandons it.
    /// - Parameter name: what error messages call the destination.
    public init(sink: any ByteSink, name: String = "the download", flushPolicy: FlushPolicy = .whenFull) {
        path = nil
        displayName = name
        atomicFile = nil
        self.sink = sink
        descriptor = -1
        self.flushPolicy = flushPolicy
        buffer.reserveCapacity(Self.capacity)
    }

    deinit {
        if !finished { abandon() }
    }

    /// Appends bytes; writes through when the buffer is full.
    public func write(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Gives direct access to the buffer, so formatters append without intermediate arrays.
    /// - Parameter expected: bytes `body` appends, when known: a buffer they would overflow
    ///   is written first, so it never grows past its capacity (growing to 2 MiB faulted in
    ///   512 fresh pages and copied the first megabyte, a tenth of the writing thread's CPU).
    public func append(expected: Int = 0, _ body: (inout [UInt8]) -> Void) throws {
        if buffer.count + expected > buffer.capacity, !buffer.isEmpty { try flush() }
        body(&buffer)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Called by writers after each complete record.
    public func recordEnded() throws {
        if flushPolicy == .everyRecord { try flush() }
    }

    /// Writes everything buffered to the descriptor.
    /// - Throws: `SondeError(.outputClosed)` when the reader of a pipe has gone (EPIPE), `.io` otherwise.
    public func flush() throws {
        if let sink {
            do {
                if !buffer.isEmpty { try buffer.withUnsafeBytes { try sink.write($0) } }
            } catch let error as SondeError {
                throw error
            } catch {
                throw SondeError(.io, "cannot write \(displayName): \(error)", underlying: error)
            }
            buffer.removeAll(keepingCapacity: true)
            return
        }
        do {
            try buffer.withUnsafeBytes { bytes in
                try SystemCall.writeAll(descriptor, bytes)
                checksum?.update(bytes)
            }
            bytesWritten += buffer.count
        } catch let failure as SystemCall.Failure where failure.isBrokenPipe {
            throw SondeError(.outputClosed, "output closed by its reader")
        } catch {
            throw SondeError(.io, "cannot write \(displayName): \(error)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and, for a file, gives the finished file its name.
    public func commit() throws {
        try flush()
        finished = true
        if let sink { return try sink.finish() }
        guard let atomicFile else {
            // A device or FIFO we opened: close it so a reader sees the end. Standard
            // output stays open for whatever the process writes next.
            if descriptor != 1 { close(descriptor) }
            return
        }
        try atomicFile.commit(sync: syncsOnCommit)
    }

    /// Drops a file destination's partial output; the target is left as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        if let sink {
            sink.abandon()
        } else if let atomicFile {
            atomicFile.abandon()
        } else if descriptor != 1 {
            close(descriptor)
        }
    }
}
