import SondeAccounts
import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads passwords, which never come from the command line: a line of standard input with
/// `--password-stdin`, otherwise from the terminal with echo off.
public enum PasswordPrompt {
    /// - Parameters:
    ///   - fromStandardInput: read one line of stdin (without its line ending), no prompt.
    ///   - prompt: what the terminal shows, e.g. `Password: `.
    ///   - confirmation: when set, asks a second time with this prompt and requires the same
    ///     answer (register, reset).
    /// - Throws: `AccountError.passwordMismatch`, or `.noPasswordSource` when stdin is not a
    ///   terminal and `--password-stdin` was not given.
    public static func read(
        fromStandardInput: Bool, prompt: String = "Password: ", confirmation: String? = nil
    ) throws
        -> String
    {
        if fromStandardInput { return readLine(from: 0) }
        guard isatty(0) == 1 else {
            throw AccountError(
                .noPasswordSource, "Standard input is not a terminal: pipe the password in and add --password-stdin"
            )
        }
        let password = readWithoutEcho(prompt)
        if let confirmation, readWithoutEcho(confirmation) != password { throw AccountError.passwordMismatch }
        return password
    }

    /// Reads byte by byte up to a newline, so nothing after the line is consumed.
    private static func readLine(from descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = (try? SystemCall.retrying { Glibc.read(descriptor, &byte, 1) }) ?? 0
            if count <= 0 || byte == 10 { break }
            bytes.append(byte)
        }
        if bytes.last == 13 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readWithoutEcho(_ prompt: String) -> String {
        AccountOutput.standardErrorWithoutNewline(prompt)
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return readLine(from: 0) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        savedTerminal = original
        // Ctrl-C at the prompt must not leave the terminal without echo.
        let previous = signal(SIGINT) { _ in
            if var saved = savedTerminal { tcsetattr(0, TCSANOW, &saved) }
            var newline: UInt8 = 10
            _ = Glibc.write(2, &newline, 1)
            _exit(130)
        }
        tcsetattr(0, TCSAFLUSH, &silent)
        let line = readLine(from: 0)
        tcsetattr(0, TCSANOW, &original)
        signal(SIGINT, previous)
        savedTerminal = nil
        AccountOutput.standardErrorWithoutNewline("\n")
        return line
    }
}

/// The terminal settings to restore from the SIGINT handler (a C function pointer cannot
/// capture). Written only by the main flow before the handler is installed and after it is
/// removed; the handler only reads it.
nonisolated(unsafe) private var savedTerminal: termios?

extension AccountOutput {
    public static func standardErrorWithoutNewline(_ text: String) {
        var bytes = Array(text.utf8)
        _ = Glibc.write(2, &bytes, bytes.count)
    }
}
