import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Everything sonde says on standard error goes through here, one line at a time.
public enum Diagnostics {
    public static func note(_ message: String) {
        writeLine("note: \(message)")
    }

    /// A transient status line, only on a terminal.
    public static func progress(_ message: String) {
        if isatty(2) == 1 { writeLine(message) }
    }

    /// A line of its own (a summary), always.
    public static func say(_ message: String) {
        writeLine(message)
    }

    public static func error(_ message: String) {
        writeLine("error: \(message)")
    }

    private static func writeLine(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(10)
        // A failed write to stderr has nowhere to be reported.
        bytes.withUnsafeBytes { try? SystemCall.writeAll(2, $0) }
    }
}
