#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file that appears under its name only when `commit()` is called: written as an
/// unnamed file in the target's folder (Linux's `O_TMPFILE`) and linked into place, so a
/// failed, interrupted or killed writer (even by SIGKILL) leaves no file behind and never
/// replaces an existing one with a partial one. Where the file system has no `O_TMPFILE`,
/// a named temporary `.NAME.sonde-tmp-PID-XXXXXX` is used and removed on failure.
/// `OutputFile` (records) and `PrivateFiles` (the session token) both write through it.
package final class AtomicFile {
    /// The permissions the file gets.
    package enum Mode: Sendable {
        /// Those of the file it replaces, else 0666 less the umask (as `open(2)` would).
        case asExistingOrDefault
        /// Exactly these, whatever the umask or the replaced file had.
        case exactly(UInt32)
    }

    package let descriptor: Int32
    /// What messages call the file.
    private let displayName: String
    private let pending: Pending
    private var finished = false

    private enum Pending {
        /// Unnamed (`O_TMPFILE`): linked into place at commit.
        case unnamed(target: String)
        /// Named temporary beside the target: renamed over it at commit.
        case named(temporary: String, target: String)
    }

    /// Opens the unnamed file in `path`'s folder; nothing appears at `path` until `commit()`.
    /// - Parameter followingLinks: replace the file a symbolic link at `path` names rather
    ///   than the link (records do; the session file replaces whatever is at its path).
    /// - Throws: `SondeError(.io)` when the folder is missing or not writable.
    package init(replacing path: String, mode: Mode, followingLinks: Bool) throws {
        displayName = path
        let target = followingLinks ? Self.resolvingLink(path) : path
        var status = stat()
        let permissions: mode_t
        switch mode {
        case .exactly(let exact): permissions = mode_t(exact)
        case .asExistingOrDefault:
            permissions = stat(target, &status) == 0 ? mode_t(status.st_mode & 0o7777) : 0o666 & ~Self.creationMask
        }
        let folder = Self.folder(of: target)
        var fd: Int32
        do {
            fd = try SystemCall.open(folder, openTemporaryFile | O_WRONLY | O_CLOEXEC, mode: UInt32(permissions))
            pending = .unnamed(target: target)
        } catch  where [EOPNOTSUPP, EISDIR, EINVAL].contains(error.code) {
            // No O_TMPFILE here (some network file systems): a named temporary file.
            let name = target.split(separator: "/").last.map(String.init) ?? target
            let prefix = target.dropLast(name.count)
            Self.removeLeftovers(matching: "\(prefix).\(name).sonde-tmp-")
            var template = Array("\(prefix).\(name).sonde-tmp-\(getpid())-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
            guard fd >= 0 else {
                throw SondeError(
                    .io, "cannot write '\(path)': \(SystemCall.describe(errno)); expected a writable folder")
            }
            pending = .named(
                temporary: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                target: target)
        } catch {
            throw SondeError(.io, "cannot write '\(path)': \(error); expected a writable folder")
        }
        fchmod(fd, permissions)
        descriptor = fd
    }

    deinit {
        abandon()
    }

    /// Gives the written file its name, after an `fsync` when `sync` (a caller that makes
    /// many files durable at once with `syncfs` passes false).
    /// - Throws: `SondeError(.io)`; the target is then left as it was.
    package func commit(sync: Bool) throws {
        guard !finished else { return }
        finished = true
        defer { close(descriptor) }
        guard !sync || fsync(descriptor) == 0 || errno == EINVAL else {
            let message = SystemCall.describe(errno)
            discard()
            throw SondeError(.io, "cannot write '\(displayName)': \(message)")
        }
        switch pending {
        case .unnamed(let target):
            // A new name: linked in place at once. An existing file: linked under a
            // temporary name, then renamed over it, since link() cannot replace a file and
            // rename() can, atomically.
            let path = "/proc/self/fd/\(descriptor)"
            if linkat(AT_FDCWD, path, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 { return }
            guard errno == EEXIST else {
                throw SondeError(.io, "cannot create '\(displayName)': \(SystemCall.describe(errno))")
            }
            let temporary = "\(target).sonde-tmp-\(getpid())"
            unlink(temporary)
            guard linkat(AT_FDCWD, path, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
                throw SondeError(.io, "cannot create '\(displayName)': \(SystemCall.describe(errno))")
            }
            try rename(temporary, over: target)
        case .named(let temporary, let target):
            try rename(temporary, over: target)
        }
    }

    /// Drops what was written; the target is left as it was.
    package func abandon() {
        guard !finished else { return }
        finished = true
        close(descriptor)
        discard()
    }

    private func rename(_ temporary: String, over target: String) throws {
        guard Glibc.rename(temporary, target) == 0 else {
            let message = SystemCall.describe(errno)
            unlink(temporary)
            throw SondeError(.io, "cannot create '\(displayName)': \(message)")
        }
    }

    private func discard() {
        if case .named(let temporary, _) = pending { unlink(temporary) }
    }

    /// Removes the named temporaries of earlier runs that were killed (their process is
    /// gone): `PREFIX<pid>-XXXXXX`. Only where there is no `O_TMPFILE`, which leaves none.
    private static func removeLeftovers(matching prefix: String) {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(prefix + "*", 0, nil, &matches) == 0 else { return }
        for index in 0..<Int(matches.gl_pathc) {
            guard let match = matches.gl_pathv[index].map({ String(cString: $0) }) else { continue }
            let pid = match.dropFirst(prefix.count).prefix { $0.isNumber }
            if let pid = pid_t(pid), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(match) }
        }
    }

    /// The process's umask, read once (reading it means setting it, twice per file).
    private static let creationMask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// The file a symbolic link finally names (the path itself when it is none).
    private static func resolvingLink(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else {
            return path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), a macro Swift does not import.
private let openTemporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
