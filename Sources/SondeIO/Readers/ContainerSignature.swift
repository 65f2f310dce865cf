import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognises files that are containers of some other kind (a MATLAB or HDF5 recording, an
/// archive, a document) by their first bytes, so that they are never read as raw samples:
/// `--sample-type` on a MAT file measured its header and compressed bytes as a signal and
/// printed a plausible table of garbage (issue 43).
enum ContainerSignature {
    /// A signature: the bytes at `offset`, and what a file holding them is.
    struct Known: Sendable {
        let offset: Int
        let bytes: [UInt8]
        let name: String

        init(_ bytes: [UInt8], at offset: Int = 0, _ name: String) {
            self.offset = offset
            self.bytes = bytes
            self.name = name
        }

        init(_ text: String, at offset: Int = 0, _ name: String) {
            self.init(Array(text.utf8), at: offset, name)
        }
    }

    /// First match wins: MATLAB 7.3 (text, then an HDF5 signature at 512) before HDF5.
    static let known: [Known] = [
        Known("MATLAB 7.3 MAT-file", "a MATLAB 7.3 MAT-file (HDF5 inside)"),
        Known("MATLAB 5.0 MAT-file", "a MATLAB 5.0 MAT-file (v5/v7)"),
        Known([0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A], "an HDF5 file"),
        Known([0x89, 0x48, 0x44, 0x46, 0x0D, 0x0A, 0x1A, 0x0A], at: 512, "an HDF5 file"),
        Known("TDSm", "an NI TDMS file"),
        Known("TDSh", "an NI TDMS index file"),
        Known("PAR1", "a Parquet file"),
        Known("ARROW1", "an Arrow IPC file"),
        Known([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59], "a NumPy .npy file"),
        Known([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (or .npz, .xlsx, .docx)"),
        Known([0x50, 0x4B, 0x05, 0x06], "an empty ZIP archive"),
        // Three bytes at least, so raw samples rarely match by chance: gzip's deflate method
        // byte, JPEG's first marker, bzip2's block magic.
        Known([0x1F, 0x8B, 0x08], "a gzip-compressed file"),
        Known([0x28, 0xB5, 0x2F, 0xFD], "a Zstandard-compressed file"),
        Known([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz-compressed file"),
        Known([0x31, 0x41, 0x59, 0x26, 0x53, 0x59], at: 4, "a bzip2-compressed file"),
        Known([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
        Known("ustar", at: 257, "a tar archive"),
        Known("SQLite format 3\u{0}", "an SQLite database"),
        Known("%PDF-", "a PDF document"),
        Known([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
        Known([0xFF, 0xD8, 0xFF, 0xE0], "a JPEG image"),
        Known([0xFF, 0xD8, 0xFF, 0xE1], "a JPEG image"),
        Known([0xFF, 0xD8, 0xFF, 0xDB], "a JPEG image"),
        Known("GIF8", "a GIF image"),
        Known([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
    ]

    /// Bytes read to look for every signature.
    static let headLength = 520

    /// What the bytes `head` (a file's first bytes) say the file is, or nil: a sound
    /// container (which libsndfile decodes when the name lets it) or one of `known`.
    static func container(head: [UInt8]) -> String? {
        if SoundFileSignature.matches(head) { return "a sound file (WAV, FLAC, AIFF, Ogg, CAF or MP3)" }
        for signature in known where head.count >= signature.offset + signature.bytes.count {
            if head[signature.offset..<(signature.offset + signature.bytes.count)].elementsEqual(signature.bytes) {
                return signature.name
            }
        }
        return nil
    }

    /// The container a regular file's first bytes (from `offset`) name; nil for anything
    /// else, a pipe, or a read that fails (reading it later reports why).
    static func container(descriptor: Int32, offset: Int = 0) -> String? {
        var head = [UInt8](repeating: 0, count: headLength)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, headLength, off_t(offset)) }
        guard count > 0 else { return nil }
        return container(head: Array(head.prefix(count)))
    }

    /// The container the file at `path` is, when it is a regular file that names one.
    static func container(path: String) -> String? {
        guard let descriptor = try? SystemCall.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return container(descriptor: descriptor)
    }

    /// The refusal for reading `name`, which is `container`, as raw samples.
    static func notRawSamples(_ name: String, container: String) -> SondeError {
        SondeError(
            .unsupported,
            "\(name): is \(container), not raw samples; sonde does not read it as --sample-type data (its bytes would measure as noise)\(advice(for: container))"
        )
    }

    /// What a user can do with a file of this kind today.
    static func advice(for container: String) -> String {
        if container.hasPrefix("a sound file") {
            return "; give it its extension (.wav, .flac, ...) and drop --sample-type"
        }
        if container.contains("MAT-file") || container.contains("HDF5") || container == "an NI TDMS file" {
            return
                "; drop --sample-type: sonde reads MATLAB, HDF5 and TDMS files (`sonde info FILE` lists their arrays)"
        }
        if container.contains("NumPy") {
            return
                "; export each channel as raw float64 (in Python: numpy.asarray(x, '<f8').tofile('x.f64')) and measure that with --rate"
        }
        return ""
    }
}
