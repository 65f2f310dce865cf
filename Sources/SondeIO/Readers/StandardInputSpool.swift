import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A MATLAB, HDF5 or TDMS recording arriving on standard input, copied to a temporary file
/// that the container readers open by path.
///
/// Why copy rather than refuse: a user who pipes a recording (`ssh lab cat run.mat | sonde
/// process - ...`, `curl ... | sonde info -`) expects the records the same file gives by path,
/// as CSV and raw samples do. The three formats need random access (HDF5's and so v7.3's
/// B-trees and heaps, a v5 file's variables found by their tags, TDMS's per-segment offsets),
/// and libmatio and libhdf5 open files by name, so the bytes are copied first: at most
/// `limitBytes` (4 GiB, so that a stray stream cannot fill the disk); past it the run stops
/// with one line saying to pass the file by path. Memory stays bounded: the copy goes
/// through one 1 MiB buffer.
///
/// Removal: the copy is `$TMPDIR/sonde-stdin-PID-XXXXXX` (0600), unlinked by `finish()` as
/// soon as the reader has opened it, whether or not that succeeded (the readers keep their own
/// descriptors, so the run reads on), and at once when the copy fails. It cannot be unnamed
/// (`O_TMPFILE` opened through `/proc/self/fd/N`): libhdf5 resolves the real path of the file
/// it opens and refuses "/tmp/#123 (deleted)". A run killed while copying or opening leaves its
/// file, which the next copy removes (its process is gone).
final class StandardInputSpool {
    /// The most bytes copied from standard input: 4 GiB.
    static let limitBytes = 4 << 30

    /// The copy's path, which the container readers open.
    let path: String
    /// Bytes copied.
    let size: Int
    private let descriptor: Int32
    private var finished = false
    /// The copies' names start with this, then the process's id.
    static let prefix = "sonde-stdin-"

    /// Copies `prefix` (bytes already read from `source`) and the rest of `source` into a
    /// temporary file in `folder`.
    /// - Parameters:
    ///   - kind: what the bytes are, for messages.
    ///   - limit: the most bytes copied (`limitBytes` outside tests).
    /// - Throws: `SondeError(.io)` when no temporary file can be made or written (a full disk
    ///   says so), when reading fails, and `.unsupported` past `limit`; the copy is gone by then.
    init(
        prefix: UnsafeRawBufferPointer, from source: Int32, kind: ContainerKind,
        folder: String = StandardInputSpool.temporaryFolder, limit: Int = StandardInputSpool.limitBytes
    ) throws {
        let advice = "pass the file by path instead of on standard input"
        Self.removeLeftovers(in: folder)
        var template = Array("\(folder)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else {
            throw SondeError(
                .io,
                "\(OpenedInput.standardInputName): \(kind.article) file is copied to a temporary file to be "
                    + "read, and none can be made in \(folder) (\(SystemCall.describe(errno))); set TMPDIR or "
                    + advice)
        }
        let named = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        descriptor = fd
        path = named
        do {
            size = try Self.copy(prefix: prefix, from: source, to: descriptor, limit: limit, kind: kind, advice: advice)
        } catch {
            close(fd)
            unlink(named)
            throw error
        }
    }

    deinit { finish() }

    /// Closes and unlinks the copy; the readers that opened it keep reading it.
    func finish() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        unlink(path)
    }

    /// Removes the copies of earlier runs that were killed (their process is gone).
    private static func removeLeftovers(in folder: String) {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob("\(folder)/\(prefix)*", 0, nil, &matches) == 0 else { return }
        for index in 0..<Int(matches.gl_pathc) {
            guard let match = matches.gl_pathv[index].map({ String(cString: $0) }) else { continue }
            let pid = match.dropFirst(folder.count + 1 + prefix.count).prefix { $0.isNumber }
            if let pid = pid_t(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(match) }
        }
    }

    /// `$TMPDIR`, else `/tmp`.
    static var temporaryFolder: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return "/tmp" }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// "4 GiB", "12 MiB", "512 bytes".
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }

    private static func copy(
        prefix: UnsafeRawBufferPointer, from source: Int32, to target: Int32, limit: Int, kind: ContainerKind,
        advice: String
    ) throws -> Int {
        let name = OpenedInput.standardInputName
        let tooLarge = {
            SondeError(
                .unsupported,
                "\(name): more than \(describe(limit)) of \(kind.article) file on standard input; sonde copies "
                    + "one to a temporary file to read it, up to \(describe(limit)): \(advice)")
        }
        let write = { (bytes: UnsafeRawBufferPointer, total: Int) throws in
            do {
                try SystemCall.writeAll(target, bytes)
            } catch let error as SystemCall.Failure {
                let why = error.code == ENOSPC ? "the disk is full" : "\(error)"
                throw SondeError(
                    .io,
                    "\(name): cannot copy \(kind.article) file to a temporary file in \(temporaryFolder) after "
                        + "\(describe(total)) (\(why)); \(advice)")
            }
        }
        guard prefix.count <= limit else { throw tooLarge() }
        try write(prefix, 0)
        var total = prefix.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
        defer { buffer.deallocate() }
        while true {
            let got = try SystemCall.retryingInterrupts("\(name): cannot read it") {
                read(source, buffer.baseAddress, buffer.count)
            }
            if got == 0 { return total }
            guard total + got <= limit else { throw tooLarge() }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), total)
            total += got
        }
    }
}

extension ContainerKind {
    /// "a MATLAB", "an HDF5", "a TDMS", for messages.
    fileprivate var article: String { self == .hdf5 ? "an HDF5" : "a \(rawValue)" }
}
