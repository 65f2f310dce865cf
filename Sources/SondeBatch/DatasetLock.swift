import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive `flock(2)` on a file in a dataset's output folder: one run at a time per
/// shard, and one settings check at a time per folder. The kernel releases it when the
/// process ends however it ends, so a kill never leaves a folder locked.
public final class DatasetLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock without waiting, and writes this process's pid into the file.
    /// - Throws: `SondeError(.invalidArgument)` naming the holder's pid when another
    ///   process holds it; `.io` when the file cannot be opened.
    public static func acquire(path: String, what: String) throws -> DatasetLock {
        let descriptor = try open(path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var bytes = [UInt8](repeating: 0, count: 32)
            var count = pread(descriptor, &bytes, bytes.count, 0)
            if count <= 0 {
                // The holder may be between taking the lock and writing its pid.
                usleep(20_000)
                count = pread(descriptor, &bytes, bytes.count, 0)
            }
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw SondeError(.io, "cannot lock '\(path)': \(SystemCall.describe(code))")
            }
            let pid = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self).filter(\.isNumber) : ""
            throw SondeError(
                .invalidArgument,
                "\(what) is in use by another sonde process\(pid.isEmpty ? "" : " (pid \(pid))"); wait for it to end, or stop it and run again"
            )
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DatasetLock(descriptor: descriptor)
    }

    /// Takes the lock, waiting for the holder (held only for a moment: the settings check).
    public static func wait(path: String) throws -> DatasetLock {
        let descriptor = try open(path)
        do {
            _ = try SystemCall.retrying { flock(descriptor, LOCK_EX) }
        } catch {
            close(descriptor)
            throw SondeError(.io, "cannot lock '\(path)': \(error)")
        }
        return DatasetLock(descriptor: descriptor)
    }

    private static func open(_ path: String) throws -> Int32 {
        do {
            return try SystemCall.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o666)
        } catch {
            throw SondeError(.io, "cannot open the lock file '\(path)': \(error)")
        }
    }

    /// Releases the lock (closing the file); the kernel does it too when the process ends.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
