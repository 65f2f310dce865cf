import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A command run by `/bin/sh -c` in a process group of its own, its stdout and stderr on
/// pipes; ended with SIGTERM, then SIGKILL after a grace period, and always reaped.
///
/// Why a process group: a pipeline (`arecord ... | sox ...`) is several processes; SIGTERM
/// to the group ends them all, not only the shell.
final class ChildProcess {
    /// How a process ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// "exited with status 3", "was killed by signal 9".
        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "was killed by signal \(signal)"
            }
        }
    }

    let pid: pid_t
    /// Read ends of the command's stdout and stderr; -1 once closed.
    private(set) var standardOutput: Int32
    private(set) var standardError: Int32
    private(set) var ending: Ending?

    /// Starts `command`; stdin is /dev/null.
    /// - Throws: `SondeError` when the pipes or the process cannot be made.
    init(command: String) throws {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        // pipe2 is declared only under _GNU_SOURCE; the copies are marked close-on-exec at
        // once, and the child closes the read ends itself besides.
        guard pipe(&output) == 0 else {
            throw SondeError(.io, "the command `\(command)` cannot be started: \(SystemCall.describe(errno))")
        }
        guard pipe(&errors) == 0 else {
            let code = errno
            Glibc.close(output[0])
            Glibc.close(output[1])
            throw SondeError(.io, "the command `\(command)` cannot be started: \(SystemCall.describe(code))")
        }
        for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addclose(&actions, output[0])
        posix_spawn_file_actions_addclose(&actions, errors[0])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copies; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Its own group; SIGPIPE, SIGINT and SIGTERM back to their defaults (sonde ignores
        // SIGPIPE, and an ignored signal stays ignored across exec); no signal blocked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) }
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments + [nil], environ)
        Glibc.close(output[1])
        Glibc.close(errors[1])
        guard spawned == 0 else {
            Glibc.close(output[0])
            Glibc.close(errors[0])
            throw SondeError(.io, "the command `\(command)` cannot be started: \(SystemCall.describe(spawned))")
        }
        self.pid = pid
        standardOutput = output[0]
        standardError = errors[0]
        _ = fcntl(standardError, F_SETFL, fcntl(standardError, F_GETFL) | O_NONBLOCK)
    }

    deinit { terminate(grace: 0) }

    /// Reaps the process if it has ended; its ending, or nil while it runs.
    @discardableResult
    func poll() -> Ending? {
        guard ending == nil else { return ending }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            ending = Self.ending(status)
        } else if result < 0, errno == ECHILD {
            // Reaped elsewhere (a SIGCHLD handler): nothing left to wait for.
            ending = .signaled(0)
        }
        return ending
    }

    /// Waits up to `grace` seconds for the process to end by itself; then SIGTERM to its
    /// group, `grace` more seconds, SIGKILL, and a blocking wait. Returns how it ended.
    @discardableResult
    func finish(grace: Double) -> Ending {
        if let ended = waitUpTo(grace) { return ended }
        return terminate(grace: grace)
    }

    /// SIGTERM to the group, up to `grace` seconds, then SIGKILL; always reaps.
    @discardableResult
    func terminate(grace: Double) -> Ending {
        closeStandardOutput()
        if let ending { return ending }
        kill(-pid, SIGTERM)
        if let ended = waitUpTo(grace) { return ended }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let ended = Self.ending(status)
        ending = ended
        return ended
    }

    /// Closes our end of its stdout: a command still writing then gets SIGPIPE.
    func closeStandardOutput() {
        if standardOutput >= 0 { Glibc.close(standardOutput) }
        standardOutput = -1
    }

    /// Reads what stderr holds now without waiting, into `tail`; closes it at its end.
    func drainStandardError(into tail: inout StandardErrorTail) {
        guard standardError >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(standardError, $0.baseAddress, $0.count) }
            if got > 0 {
                chunk.withUnsafeBytes { tail.append(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            } else if got < 0, errno == EINTR {
                continue
            } else {
                if got == 0 {
                    Glibc.close(standardError)
                    standardError = -1
                }
                return
            }
        }
    }

    /// Closes both pipes (after the process was reaped).
    func closePipes() {
        closeStandardOutput()
        if standardError >= 0 { Glibc.close(standardError) }
        standardError = -1
    }

    private func waitUpTo(_ seconds: Double) -> Ending? {
        let deadline = MonotonicSeconds.now() + seconds
        while true {
            if let ended = poll() { return ended }
            if MonotonicSeconds.now() >= deadline { return nil }
            usleep(5_000)
        }
    }

    private static func ending(_ status: Int32) -> Ending {
        // WIFEXITED/WEXITSTATUS are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}
