import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input opened for reading: its descriptor and what kind of file is behind it.
struct OpenedInput {
    var descriptor: Int32
    /// The name messages use: the path as the user gave it, or `stdin`.
    var name: String
    /// Regular files can be read twice (the CSV time-column pre-pass) and have a size.
    var isRegularFile: Bool
    /// Bytes in a regular file; nil for pipes, terminals and devices.
    var size: Int?
    /// False for standard input, which sonde reads but does not close.
    var ownsDescriptor: Bool
    /// Where reading starts in a regular file: 0, or wherever a redirected stdin already is.
    var initialOffset = 0

    /// What the messages call standard input.
    static let standardInputName = "stdin"

    /// Opens `path` read-only and checks that it is something samples can be read from.
    ///
    /// - Throws: `SondeError(.io)` naming the path and what was expected: a missing file,
    ///   a file that may not be read, a directory.
    static func open(path: String) throws -> OpenedInput {
        let expected = "expected a sample file (CSV, WAV, FLAC, AIFF, Ogg, Opus, MP3 or raw samples)"
        let descriptor: Int32
        do {
            descriptor = try SystemCall.retrying { openReadOnly(path) }
        } catch {
            let code = error.code
            switch code {
            case ENOENT:
                throw SondeError(.io, "\(path): no such file; \(expected)")
            case EACCES, EPERM:
                throw SondeError(.io, "\(path): permission denied; expected a file sonde may read")
            case EISDIR:
                throw SondeError(.io, "\(path): is a directory; \(expected)")
            default:
                throw SondeError(.io, "\(path): cannot open it (\(SystemCall.describe(code))); \(expected)")
            }
        }
        var status = stat()
        if fstat(descriptor, &status) != 0 {
            let code = errno
            close(descriptor)
            throw SondeError(.io, "\(path): cannot inspect it (\(SystemCall.describe(code))); \(expected)")
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            close(descriptor)
            throw SondeError(.io, "\(path): is a directory; \(expected)")
        }
        let isRegular = type == S_IFREG
        return OpenedInput(
            descriptor: descriptor, name: path, isRegularFile: isRegular,
            size: isRegular ? Int(status.st_size) : nil, ownsDescriptor: true)
    }

    /// Standard input (file descriptor 0), which is read like any file but never closed.
    /// A regular file redirected into it (`< data.csv`) can be read twice like a path;
    /// a pipe cannot.
    static func standardInput() -> OpenedInput {
        var status = stat()
        let offset = Int(lseek(0, 0, SEEK_CUR))
        let isRegular = fstat(0, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && offset >= 0
        return OpenedInput(
            descriptor: 0, name: standardInputName, isRegularFile: isRegular,
            size: isRegular ? max(Int(status.st_size) - offset, 0) : nil, ownsDescriptor: false,
            initialOffset: isRegular ? offset : 0)
    }

    /// Closes the descriptor if this input owns it; for error paths before a reader took it.
    func closeIfOwned() {
        if ownsDescriptor { close(descriptor) }
    }
}

/// `open(2)` read-only, outside `OpenedInput` whose `open(path:)` would shadow it.
private func openReadOnly(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}
