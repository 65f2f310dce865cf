import CMatio
import Synchronization

/// libmatio's process-wide setup and the lock around its calls.
///
/// By default libmatio prints its complaints to stderr ("-E- ..."); sonde installs a log
/// function (`Mat_LogInitFunc`) that keeps them instead, so that a failed call's error can quote
/// them. libmatio reads v7.3 files through libhdf5, whose error printing `HDF5Library` turns off.
enum MATLibrary {
    /// Messages libmatio logged since the current locked call began.
    private static let messages = Mutex<[String]>([])

    private static let ready: Bool = {
        HDF5Library.prepare()
        // Mat_LogInitFunc keeps the pointer it is given: a static string.
        return Mat_LogInitFunc(
            "sonde",
            { _, message in
                guard let message else { return }
                MATLibrary.messages.withLock { $0.append(String(cString: message)) }
            }) == 0
    }()

    /// Runs `body` under `ContainerLibraryLock` with libmatio's log emptied first.
    static func locked<Value, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        _ = ready
        return try ContainerLibraryLock.withLock { () throws(Failure) -> Value in
            messages.withLock { $0.removeAll() }
            return try body()
        }
    }

    /// What libmatio logged during the current locked call, as one clause: "" when nothing,
    /// else " (libmatio: ...)".
    static func loggedClause() -> String {
        let logged = messages.withLock { $0 }
        guard !logged.isEmpty else { return "" }
        // libmatio passes on libhdf5's error stack as one message: its first line says enough.
        let lines = logged.map { $0.split(separator: "\n").first.map(String.init) ?? $0 }
        return " (libmatio: " + lines.joined(separator: "; ") + ")"
    }

    /// Whether libmatio logged anything during the current locked call.
    static var hasLogged: Bool { messages.withLock { !$0.isEmpty } }
}
