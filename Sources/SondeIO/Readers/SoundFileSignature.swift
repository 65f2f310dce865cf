import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognises a sound file by its first bytes when its name does not say (`bell.audio`,
/// `take-3`): the signatures of the containers libsndfile decodes.
///
/// Only container signatures count, never a bare MPEG frame sync: raw samples match an
/// 11-bit sync by chance, and a `.bin` of raw floats must still ask for `--sample-type`
/// rather than be decoded as noise. An MP3 without an ID3 tag needs its `.mp3` name.
enum SoundFileSignature {
    /// The leading bytes of each container: WAV (RIFF, RIFX, RF64), FLAC, AIFF (FORM),
    /// Ogg (Vorbis, Opus, FLAC), CAF, and MP3 with an ID3v2 tag.
    static let signatures: [[UInt8]] = ["RIFF", "RIFX", "RF64", "fLaC", "FORM", "OggS", "caff", "ID3"].map {
        Array($0.utf8)
    }

    /// Whether `path` is a regular file that starts with one of `signatures`; false for
    /// anything unreadable (opening it later reports why).
    static func isSoundFile(path: String) -> Bool {
        guard let descriptor = try? SystemCall.open(path, O_RDONLY | O_CLOEXEC) else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 4)
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
        guard count > 0 else { return false }
        return matches(Array(head.prefix(count)))
    }

    /// Whether `head`, the first bytes of a file, starts with a known signature.
    static func matches(_ head: [UInt8]) -> Bool {
        signatures.contains { head.starts(with: $0) }
    }
}
