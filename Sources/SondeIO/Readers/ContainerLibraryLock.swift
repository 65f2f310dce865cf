import Synchronization

/// The one lock under which sonde calls libhdf5 and libmatio, process-wide.
///
/// Debian's libhdf5 is the serial build, which is not thread-safe: no two threads may be inside
/// it at once, whichever file they read. libmatio reads v7.3 MAT-files through that same
/// libhdf5, and keeps its log function in a global; so every libmatio call takes this lock too.
/// Converting what a call read into Double happens outside it. Not reentrant: a body must not
/// call `withLock` again.
enum ContainerLibraryLock {
    private static let mutex = Mutex(())

    /// Runs `body` with the lock held.
    ///
    /// The result is handed out through a local rather than as `Mutex.withLock`'s `sending`
    /// result: the library's pointers (a struct field's `matvar_t *`) derive from values the
    /// caller holds, which region checking cannot see as disconnected.
    static func withLock<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        var outcome: Result<Value, Failure>?
        mutex.withLock { _ in outcome = Result(catching: body) }
        guard let outcome else { preconditionFailure("Mutex.withLock returned without running its body") }
        return try outcome.get()
    }
}
