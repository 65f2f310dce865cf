public import SondeIO

extension OutputFile {
    /// Writes a file made whole in memory (a page, a profile) atomically: complete or not
    /// at all, the old file kept when anything fails.
    public static func write(_ bytes: some Collection<UInt8>, atomicallyTo path: String) throws {
        let file = try OutputFile(atomicallyReplacing: path)
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
    }
}
