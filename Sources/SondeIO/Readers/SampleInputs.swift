public import SondeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Turns FILE arguments and `--files-from` lists into the ordered list of inputs.
///
/// - A folder is walked recursively in byte order of the names at each level (the same
///   order on every machine, whatever the locale), taking files with the extensions of
///   `SampleSources.walkExtensions`; names starting with `.` are skipped. Each real folder
///   is entered once, so symbolic-link loops cannot hang the walk.
/// - A pattern with `*`, `?` or `[` stands for its matches, sorted.
/// - `-` is standard input; anything else is kept as given, so a missing file is reported
///   by the reader with its own name.
public struct SampleInputs: Sendable {
    public private(set) var inputs: [SampleInput] = []
    /// Whether records need a `file` column: a folder, a pattern, a list or several inputs.
    public private(set) var namesFiles = false

    private let extensions: Set<String>
    /// Folders never walked (the output folder of a dataset run, when it sits inside one).
    private let excluded: Set<FileIdentity>

    /// - Parameters:
    ///   - excludingFolders: folders the walk must not enter (`--output-dir`).
    /// - Throws: `SondeError(.invalidInput)` for a folder with no sample file, a pattern
    ///   with no match, or an unreadable folder or list.
    public init(arguments: [String], sampleType: SampleFormat?, excludingFolders: [String] = []) throws {
        extensions = SampleSources.walkExtensions(sampleType: sampleType)
        excluded = Set(excludingFolders.compactMap(FileIdentity.init(path:)))
        for argument in arguments { try add(argument) }
        namesFiles = namesFiles || inputs.count > 1
    }

    /// Adds the paths of a list file (`--files-from`), one per line or NUL-separated.
    /// Entries are taken as FILE arguments are, except that patterns are not expanded.
    /// - Throws: `SondeError(.invalidInput)` when the list cannot be read or names nothing.
    public mutating func addList(_ text: [UInt8], from listName: String, nullSeparated: Bool) throws {
        let separator: UInt8 = nullSeparated ? 0 : UInt8(ascii: "\n")
        var count = 0
        for line in text.split(separator: separator, omittingEmptySubsequences: true) {
            let name = Self.escapedName(line)
            var entry = Substring(name.text)
            if !nullSeparated, entry.last == "\r" { entry = entry.dropLast() }
            guard !entry.isEmpty else { continue }
            if name.isUTF8 {
                try add(String(entry), expandingPatterns: false)
            } else {
                let path = String(entry)
                inputs.append(SampleInput(path: path, name: path, unopenable: Self.notUTF8(path)))
            }
            count += 1
        }
        guard count > 0 else { throw SondeError(.invalidInput, "\(listName): the list names no input") }
        namesFiles = true
    }

    /// The bytes of a `--files-from` list: a file, or standard input for `-`.
    /// - Throws: `SondeError(.io)` naming the list when it cannot be read.
    public static func readList(_ path: String) throws -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SondeError(.io, "--files-from \(path): cannot open it (\(SystemCall.describe(errno)))")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw in
                try SystemCall.retryingInterrupts("--files-from \(path): cannot read it") {
                    read(descriptor, raw.baseAddress, raw.count)
                }
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// The input that is the same file as `path` (by device and inode), if any: an
    /// output must never overwrite an input.
    public func input(sameFileAs path: String) -> SampleInput? {
        // Writing a device or a pipe (`-o /dev/null`) replaces no file's bytes: only a regular
        // file is worth a stat of every input (2 µs each, a dataset has 100,000).
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let output = FileIdentity(status)
        return inputs.first { $0.path != "-" && FileIdentity(path: $0.path) == output }
    }

    private mutating func add(_ argument: String, expandingPatterns: Bool = true) throws {
        if argument == "-" {
            inputs.append(SampleInput(path: argument, name: argument))
            return
        }
        var status = stat()
        if stat(argument, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            if let identity = FileIdentity(path: argument), excluded.contains(identity) {
                throw SondeError(
                    .invalidArgument,
                    "\(argument): this folder is the --output-dir too, whose files are outputs, not inputs; give an output folder of its own (e.g. \(argument.hasSuffix("/") ? String(argument.dropLast()) : argument)-features)"
                )
            }
            let before = inputs.count
            var visited: Set<FileIdentity> = excluded
            try walk(folder: argument, relative: "", visited: &visited)
            guard inputs.count > before else {
                let names = extensions.sorted().map { ".\($0)" }.joined(separator: " ")
                throw SondeError(
                    .invalidInput, "\(argument): folder has no sample files (looked for \(names), in every subfolder)")
            }
            namesFiles = true
            return
        }
        if expandingPatterns, argument.contains(where: { "*?[".contains($0) }), stat(argument, &status) != 0 {
            var matches = glob_t()
            defer { globfree(&matches) }
            guard glob(argument, 0, nil, &matches) == 0 else {
                throw SondeError(.invalidInput, "\(argument): no file matches this pattern")
            }
            let paths = (0..<Int(matches.gl_pathc)).compactMap { index in
                matches.gl_pathv[index].map {
                    Self.escapedName(UnsafeBufferPointer(start: $0, count: strlen($0)).map { UInt8(bitPattern: $0) })
                }
            }
            inputs += paths.sorted(by: { Self.byteOrder($0.text, $1.text) }).map {
                SampleInput(path: $0.text, name: $0.text, unopenable: $0.isUTF8 ? nil : Self.notUTF8($0.text))
            }
            namesFiles = true
            return
        }
        inputs.append(SampleInput(path: argument, name: argument))
    }

    /// Depth first, entries in byte order, folders and files interleaved as they sort.
    private mutating func walk(folder: String, relative: String, visited: inout Set<FileIdentity>) throws {
        guard let identity = FileIdentity(path: folder), visited.insert(identity).inserted else { return }
        guard let directory = opendir(folder) else {
            throw SondeError(.io, "\(folder): cannot read the folder: \(SystemCall.describe(errno))")
        }
        // The entry's type from the folder itself where the file system gives it: a stat
        // per file was a third of the walk's system calls on a dataset of clips.
        var entries: [(name: String, type: UInt8, isUTF8: Bool)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Self.escapedName(raw.prefix { $0 != 0 }) }
            if !name.text.hasPrefix(".") { entries.append((name.text, entry.pointee.d_type, name.isUTF8)) }
        }
        closedir(directory)
        for (name, type, isUTF8) in entries.sorted(by: { Self.byteOrder($0.name, $1.name) }) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            guard isUTF8 else {
                // A String cannot hold the name's bytes, so no call can open the file by it.
                if extensions.contains(SampleSources.fileExtension(of: name)) {
                    inputs.append(
                        SampleInput(
                            path: path, name: relativePath,
                            unopenable: Self.notUTF8(path)))
                }
                continue
            }
            var mode: mode_t
            switch Int32(type) {
            case Int32(DT_REG): mode = S_IFREG
            case Int32(DT_DIR): mode = S_IFDIR
            default:
                var status = stat()
                // stat, not lstat: a link to a folder is walked (once), a link to a file read.
                guard stat(path, &status) == 0 else { continue }
                mode = status.st_mode & S_IFMT
            }
            switch mode {
            case S_IFDIR:
                try walk(folder: path, relative: relativePath, visited: &visited)
            case S_IFREG where extensions.contains(SampleSources.fileExtension(of: name)):
                inputs.append(SampleInput(path: path, name: relativePath, isRegularFile: true))
            default:
                continue
            }
        }
    }

    /// Why an input whose name is not UTF-8 is not measured, and what to do.
    static func notUTF8(_ path: String) -> String {
        "\(path): the file name is not UTF-8 (shown with \\xHH for its other bytes); rename it (e.g. convmv -f latin1 -t utf8), or skip it with --keep-going"
    }

    /// A file name as text: itself when it is UTF-8, else with every byte from 0x80 up
    /// written `\xHH` (`bad\xFF\xFE.wav`), the `file` column's documented escape.
    static func escapedName(_ bytes: some Collection<UInt8>) -> (text: String, isUTF8: Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        var text = ""
        for byte in bytes {
            if byte < 0x80 {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return (text, false)
    }

    /// Byte order of the UTF-8 names: the same on every machine and locale.
    static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
