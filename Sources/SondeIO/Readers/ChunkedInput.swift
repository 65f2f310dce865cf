import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file descriptor in large chunks into one page-aligned buffer, keeping the
/// unconsumed tail (a CSV row or raw frame cut by the chunk boundary) in front of the
/// next chunk.
///
/// The readers consume `bytes[start..<end]` and advance `start`; `fill()` then moves
/// what is left just below a page boundary and reads the next chunk at that boundary,
/// so every `read(2)` lands page-aligned. One zero byte always follows `end`: the CSV
/// scanner's loops stop on it instead of checking the bound on every byte.
final class ChunkedInput {
    /// Bytes one `read(2)` asks for.
    static let defaultChunkSize = 1 << 20
    static let pageSize = 4096

    let descriptor: Int32
    let name: String
    let chunkSize: Int
    private let ownsDescriptor: Bool

    /// The buffer: `capacity` bytes plus the sentinel byte.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// First unconsumed byte; the readers advance it.
    var start = 0
    /// One past the last byte read; `bytes[end] == 0`.
    private(set) var end = 0
    /// True once `read(2)` has returned 0.
    private(set) var atEndOfInput = false
    /// Offset in the file of `bytes[0]`, for reading a regular file again from a position.
    private(set) var fileOffsetOfBuffer = 0

    /// Unconsumed bytes.
    var available: Int { end - start }

    /// Offset in the file of `bytes[start]`.
    var fileOffsetOfStart: Int { fileOffsetOfBuffer + start }

    /// - Parameters:
    ///   - chunkSize: bytes per `read(2)`, at least 1; the default is 1 MiB. Tests pass
    ///     tiny sizes to put rows and frames across chunk boundaries.
    init(_ input: OpenedInput, chunkSize: Int = ChunkedInput.defaultChunkSize) {
        precondition(chunkSize >= 1, "chunkSize must be positive")
        descriptor = input.descriptor
        name = input.name
        ownsDescriptor = input.ownsDescriptor
        self.chunkSize = chunkSize
        fileOffsetOfBuffer = input.initialOffset
        capacity = Self.pageSize + chunkSize
        bytes = Self.allocate(capacity)
        bytes[0] = 0
    }

    deinit {
        bytes.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer.allocate(byteCount: capacity + 1, alignment: pageSize)
            .bindMemory(to: UInt8.self, capacity: capacity + 1)
    }

    /// Keeps `bytes[start..<end]` and reads up to `chunkSize` more bytes after them with
    /// one `read(2)` (a pipe may return fewer). Pointers into the buffer are invalid
    /// afterwards; indices relative to `start` stay valid.
    ///
    /// - Returns: bytes read; 0 means the end of the input (`atEndOfInput` is then set).
    @discardableResult
    func fill() throws -> Int {
        if atEndOfInput { return 0 }
        let kept = end - start
        let readAt = (kept + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let newStart = readAt - kept
        if readAt + chunkSize > capacity {
            // Only a row longer than a chunk gets here; the callers bound how long.
            let newCapacity = readAt + chunkSize
            let newBytes = Self.allocate(newCapacity)
            newBytes.advanced(by: newStart).update(from: bytes.advanced(by: start), count: kept)
            bytes.deallocate()
            bytes = newBytes
            capacity = newCapacity
        } else if newStart != start && kept > 0 {
            memmove(bytes.advanced(by: newStart), bytes.advanced(by: start), kept)
        }
        fileOffsetOfBuffer += start - newStart
        start = newStart
        end = readAt
        let target = bytes.advanced(by: readAt)
        let count = chunkSize
        let descriptor = self.descriptor
        let got = try SystemCall.retryingInterrupts("\(name): cannot read it") {
            read(descriptor, target, count)
        }
        end += got
        bytes[end] = 0
        if got == 0 { atEndOfInput = true }
        return got
    }

    /// Reads until at least `count` bytes are unconsumed or the input ends.
    func fill(toAtLeast count: Int) throws {
        while available < count, try fill() > 0 {}
    }

    /// Drops everything buffered and continues reading a regular file at `offset`.
    func rewind(toFileOffset offset: Int) throws {
        let descriptor = self.descriptor
        _ = try SystemCall.retryingInterrupts("\(name): cannot read it again") {
            lseek(descriptor, off_t(offset), SEEK_SET)
        }
        start = 0
        end = 0
        bytes[0] = 0
        atEndOfInput = false
        fileOffsetOfBuffer = offset
    }
}
