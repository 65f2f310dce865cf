public import SondeCore

/// Opens sample inputs by name: the one entry point the command line uses.
public enum SampleSources {
    /// What an input holds, decided from `--sample-type` or the file name.
    enum Kind: Equatable, Sendable {
        case csv
        case soundFile
        case raw(SampleFormat)
        /// A MATLAB, HDF5 or TDMS recording: named arrays, some of them channels.
        case container(ContainerKind)
    }

    /// Opens `path` (`-` for standard input) and checks everything that can be checked
    /// before the first sample: that the file exists and can be read, its header, the
    /// rate and channel count, and for a CSV with a time column and no `--rate` every
    /// row (the rate is the median time step of the whole file).
    ///
    /// How the input is read:
    /// - `--sample-type` always means raw interleaved samples of that type;
    /// - `-` is CSV text, or raw with `--sample-type`, or a MATLAB (v5/v7/v7.3), HDF5 or TDMS
    ///   file when its first bytes say so (`standardInput()`);
    /// - `.csv`, `.txt`: CSV; `.wav`, `.flac`, `.aif`, `.aiff`, `.ogg`, `.oga`, `.opus`,
    ///   `.mp3`: libsndfile; `.mat` (libmatio), `.h5`/`.hdf5`/`.he5` (libhdf5), `.tdms`, or a
    ///   file whose first bytes say MATLAB 5.0/7.3, HDF5 or TDMS: `ContainerSampleSource`; `.f32`/`.f32le`, `.f64`/`.f64le`, `.i16`/`.i16le`/`.s16`,
    ///   `.i32`/`.i32le`: raw of that type;
    /// - any other name: libsndfile when the file starts with a sound container's signature
    ///   (`SoundFileSignature`), else `--sample-type` is needed (`.raw`, `.bin`);
    /// - a file whose first bytes name another container (MAT, HDF5, ZIP, ...:
    ///   `ContainerSignature`) is refused, even with `--sample-type`.
    ///
    /// Raw input needs `--rate`; `--channels` defaults to 1.
    ///
    /// - Throws: `SondeError` naming the path and what was expected.
    public static func open(
        path: String, options: SampleSourceOptions = SampleSourceOptions()
    ) throws
        -> sending any SampleSource
    {
        try options.validate()
        if path == "-", options.sampleType == nil { return try open(standardInput(), options: options) }
        let kind = try kind(of: path, options: options)
        if case .raw = kind, options.sampleRate == nil {
            let name = path == "-" ? OpenedInput.standardInputName : path
            throw SondeError(.invalidArgument, "\(name): raw samples carry no sample rate; pass --rate HZ")
        }
        if case .container(let container) = kind {
            // A path that cannot be opened says why, as for any other input.
            try OpenedInput.open(path: path).closeIfOwned()
            return try ContainerSampleSource.open(path, kind: container, options: options)
        }
        if options.container.isSet {
            let name = path == "-" ? OpenedInput.standardInputName : path
            throw SondeError(
                .invalidArgument,
                "\(name): --variables, --orientation, --rate-variable and --rate-attribute apply to MATLAB, HDF5 and TDMS files only"
            )
        }
        let input = path == "-" ? OpenedInput.standardInput() : try OpenedInput.open(path: path)
        return try open(input, kind: kind, options: options)
    }

    /// Opens an already opened input (tests hand in pipes this way).
    static func open(
        _ input: OpenedInput, kind: Kind, options: SampleSourceOptions, chunkSize: Int = ChunkedInput.defaultChunkSize
    ) throws -> any SampleSource {
        switch kind {
        case .csv:
            return try CSVSampleSource(
                ChunkedInput(input, chunkSize: chunkSize), canReadTwice: input.isRegularFile, options: options)
        case .soundFile:
            return try SoundFileSampleSource(input, options: options)
        case .container(let container):
            input.closeIfOwned()
            return try ContainerSampleSource.open(input.name, kind: container, options: options)
        case .raw(let sampleFormat):
            if input.isRegularFile,
                let container = ContainerSignature.container(
                    descriptor: input.descriptor, offset: input.initialOffset)
            {
                input.closeIfOwned()
                throw ContainerSignature.notRawSamples(input.name, container: container)
            }
            let chunked = ChunkedInput(input, chunkSize: chunkSize)
            if !input.isRegularFile {
                // A pipe: its first read (which the raw reader would make anyway) is looked at and kept.
                _ = try chunked.fill()
                let head = Array(UnsafeBufferPointer(start: chunked.bytes + chunked.start, count: chunked.available))
                if let container = ContainerSignature.container(head: head) {
                    throw ContainerSignature.notRawSamples(input.name, container: container)
                }
            }
            // `sampleRate` was checked by the caller; 0 cannot reach here.
            return RawSampleSource(
                chunked, sampleFormat: sampleFormat, channels: options.channels ?? 1,
                sampleRate: options.sampleRate ?? 0, size: input.size,
                path: input.ownsDescriptor && input.isRegularFile && input.initialOffset == 0 ? input.name : nil)
        }
    }

    /// The kind of input `path` names.
    static func kind(of path: String, options: SampleSourceOptions) throws -> Kind {
        if let sampleType = options.sampleType { return .raw(sampleType) }
        if path == "-" { return .csv }
        let fileExtension = Self.fileExtension(of: path)
        if let kind = extensions[fileExtension] { return kind }
        if SoundFileSignature.isSoundFile(path: path) { return .soundFile }
        if fileExtension == "tsv" {
            throw SondeError(
                .unsupported, "\(path): tab-separated text is not supported; expected comma-separated values (.csv)")
        }
        // A path that cannot be opened says why (a mistyped folder is missing, not unnamed).
        try OpenedInput.open(path: path).closeIfOwned()
        // A recording in a container: read it when sonde reads the kind, else say what it is
        // and never suggest --sample-type, which would measure its bytes as samples.
        if let container = ContainerSignature.container(path: path) {
            if let kind = containerKind(container) { return .container(kind) }
            throw SondeError(
                .unsupported,
                "\(path): is \(container), which sonde does not read\(ContainerSignature.advice(for: container))")
        }
        let types = SampleFormat.allCases.map(\.rawValue).joined(separator: "|")
        throw SondeError(
            .invalidArgument,
            "\(path): cannot tell how its samples are encoded from the name; pass --sample-type \(types)")
    }

    /// The one list of the extensions sonde reads, and how: the reader and the folder walk
    /// (`SampleInputs`) both use it, so they cannot drift apart.
    static let extensions: [String: Kind] = [
        "csv": .csv, "txt": .csv,
        "wav": .soundFile, "flac": .soundFile, "aif": .soundFile, "aiff": .soundFile, "ogg": .soundFile,
        // Common Voice and FMA ship MP3; Opus and Ogg Vorbis as .oga come from Linux desktops.
        "mp3": .soundFile, "opus": .soundFile, "oga": .soundFile,
        "f32": .raw(.f32le), "f32le": .raw(.f32le), "f64": .raw(.f64le), "f64le": .raw(.f64le),
        "i16": .raw(.i16le), "i16le": .raw(.i16le), "s16": .raw(.i16le), "i32": .raw(.i32le), "i32le": .raw(.i32le),
        // MAT v4 has no signature: its name says it.
        "mat": .container(.mat), "h5": .container(.hdf5), "hdf5": .container(.hdf5), "he5": .container(.hdf5),
        "tdms": .container(.tdms),
    ]

    /// What a folder walk takes: every extension above but `.txt` (notes and READMEs sit
    /// beside recordings), and with `--sample-type` also `.raw`, `.bin` and `.pcm`.
    public static func walkExtensions(sampleType: SampleFormat?) -> Set<String> {
        var names = Set(extensions.keys)
        names.remove("txt")
        if sampleType != nil { names.formUnion(["raw", "bin", "pcm"]) }
        return names
    }

    /// The lower-cased text after the last `.` of the file name (the last path component,
    /// trailing slashes aside), or "". Found from the end of the bytes: splitting the whole
    /// path into components was 3% of a run over 20,000 short clips (perf).
    static func fileExtension(of path: String) -> String {
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        let start = bytes[..<end].lastIndex(of: slash).map { bytes.index(after: $0) } ?? bytes.startIndex
        guard let dot = bytes[start..<end].lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return String(Substring(bytes[bytes.index(after: dot)..<end])).lowercased()
    }
}
