#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SondeCore

/// Where records go: standard output, or a file that appears only when the run succeeds.
///
/// A file destination is written to a temporary file beside the target and renamed over
/// it by `commit()`: a failed run never leaves a half-written file, and never replaces an
/// existing one with garbage. Bytes are buffered (1 MiB) and written with `write(2)`.
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
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    private static let capacity = 1 << 20

    /// Writes to standard output.
    public init(standardOutputFlushing flushPolicy: FlushPolicy) {
        path = nil
        displayName = "standard output"
        temporaryPath = nil
        descriptor = 1
        self.flushPolicy = flushPolicy
        buffer.reserveCapacity(Self.capacity)
    }

    /// Writes to /dev/null: a real exporter whose bytes go nowhere, for benchmarks.
    public init(discarding: Void = ()) throws {
        path = nil
        displayName = "/dev/null"
        temporaryPath = nil
        flushPolicy = .whenFull
        descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SondeError(.io, "cannot open /dev/null: \(String(cString: strerror(errno)))") }
        buffer.reserveCapacity(Self.capacity)
    }

    /// Creates a temporary file beside `path`; nothing appears at `path` until `commit()`.
    /// - Throws: `SondeError(.io)` when the directory is missing or not writable.
    public init(atomicallyReplacing path: String, flushPolicy: FlushPolicy = .whenFull) throws {
        self.flushPolicy = flushPolicy
        // A device, FIFO or socket (`-o /dev/null`, `-o /dev/stdout`) is written in place:
        // renaming a temporary file over it would replace the device with a plain file.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw SondeError(.io, "cannot write output '\(path)': \(String(cString: strerror(errno)))")
            }
            self.path = nil
            displayName = path
            temporaryPath = nil
            descriptor = fd
            buffer.reserveCapacity(Self.capacity)
            return
        }
        self.path = path
        displayName = path
        var template = Array("\(path).sonde-tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw SondeError(.io, "cannot write output '\(path)': \(String(cString: strerror(errno))); expected a writable directory")
        }
        // mkstemp creates 0600; give the result the mode any new file would get.
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        descriptor = fd
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
    public func append(_ body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Called by writers after each complete record.
    public func recordEnded() throws {
        if flushPolicy == .everyRecord { try flush() }
    }

    /// Writes everything buffered to the descriptor.
    /// - Throws: `SondeError(.cancelled)` when the reader of a pipe has gone (EPIPE), `.io` otherwise.
    public func flush() throws {
        var offset = 0
        try buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while offset < raw.count {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { throw SondeError(.cancelled, "output closed by its reader") }
                    throw SondeError(.io, "cannot write \(displayName): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and, for a file, moves the finished file into place.
    public func commit() throws {
        try flush()
        finished = true
        guard let path, let temporaryPath else {
            // A device or FIFO we opened: close it so a reader sees the end. Standard
            // output stays open for whatever the process writes next.
            if descriptor != 1 { close(descriptor) }
            return
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw SondeError(.io, "cannot write '\(path)': \(message)")
        }
        guard rename(temporaryPath, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw SondeError(.io, "cannot create '\(path)': \(message)")
        }
    }

    /// Drops a file destination's partial output; the target is left as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        guard let temporaryPath else { return }
        close(descriptor)
        unlink(temporaryPath)
    }
}
