public import SondeIO

extension OutputFile {
    /// `-o FILE`, written atomically (complete or not at all), or standard output for nil
    /// (`-o -` or no `-o`): how every command that may write to either opens its output.
    public static func fileOrStandardOutput(_ path: String?) throws -> OutputFile {
        try path.map { try OutputFile(atomicallyReplacing: $0) } ?? OutputFile(standardOutputFlushing: .whenFull)
    }
}
