import SondeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension SampleSources {
    /// What standard input holds, told by its first bytes.
    enum StandardInputContent {
        /// A MATLAB (v5, v7, v7.3), HDF5 or TDMS file, read from `path`: the redirected file
        /// itself (`< run.mat`), or a copy of a pipe's bytes (`spool`, finished once opened).
        case container(ContainerKind, path: String, spool: StandardInputSpool?)
        /// Anything else (CSV text), with the bytes a pipe already gave held in `chunked`.
        case stream(OpenedInput, chunked: ChunkedInput?)
    }

    /// Looks at standard input's first bytes: a container is read as it would be by path,
    /// anything else as CSV, as before.
    ///
    /// Why look rather than need an option: a MATLAB, HDF5 or TDMS file says what it is in its
    /// first bytes, which no CSV text starts with, so `sonde process - < run.mat` and
    /// `cat run.tdms | sonde process -` give the records of `sonde process run.mat`; a user
    /// should not have to say twice what the file already says. A pipe's look is one `read`,
    /// the one the CSV reader would make anyway (a live CSV stream waits for nothing more),
    /// and the bytes are kept for it. A MAT v4 file has no signature and is not recognised
    /// here (it fails as CSV text): pass it by path, where its `.mat` name says what it is.
    static func standardInput(chunkSize: Int = ChunkedInput.defaultChunkSize) throws -> StandardInputContent {
        let input = OpenedInput.standardInput()
        if input.isRegularFile {
            guard let kind = containerKind(ContainerSignature.container(descriptor: 0, offset: input.initialOffset))
            else { return .stream(input, chunked: nil) }
            // The redirected file, reopened by name from its start; a copy when stdin was
            // already advanced (the container's offsets count from its first byte).
            #if os(Linux)
                if input.initialOffset == 0 { return .container(kind, path: "/proc/self/fd/0", spool: nil) }
            #endif
            let spool = try StandardInputSpool(
                prefix: UnsafeRawBufferPointer(start: nil, count: 0), from: 0, kind: kind)
            return .container(kind, path: spool.path, spool: spool)
        }
        let chunked = ChunkedInput(input, chunkSize: chunkSize)
        _ = try chunked.fill()
        let head = Array(UnsafeBufferPointer(start: chunked.bytes + chunked.start, count: chunked.available))
        guard let kind = containerKind(ContainerSignature.container(head: head)) else {
            return .stream(input, chunked: chunked)
        }
        let spool = try head.withUnsafeBytes { try StandardInputSpool(prefix: $0, from: 0, kind: kind) }
        return .container(kind, path: spool.path, spool: spool)
    }

    /// Opens what standard input holds as `open(path: "-")` does.
    static func open(_ content: StandardInputContent, options: SampleSourceOptions) throws -> any SampleSource {
        switch content {
        case .container(let kind, let path, let spool):
            defer { spool?.finish() }
            return try ContainerSampleSource.open(
                path, kind: kind, options: options, name: OpenedInput.standardInputName)
        case .stream(let input, let chunked):
            if options.container.isSet {
                throw SondeError(
                    .invalidArgument,
                    "\(OpenedInput.standardInputName): --variables, --orientation, --rate-variable and "
                        + "--rate-attribute apply to MATLAB, HDF5 and TDMS files, and standard input does not start "
                        + "as one does (a MAT v4 file has no signature: pass it by path)")
            }
            guard let chunked else { return try open(input, kind: .csv, options: options) }
            return try CSVSampleSource(chunked, canReadTwice: false, options: options)
        }
    }

    /// The container sonde reads that `container` (a `ContainerSignature` name) is, if any.
    static func containerKind(_ container: String?) -> ContainerKind? {
        guard let container else { return nil }
        if container.contains("MAT-file") { return .mat }
        if container.hasPrefix("an HDF5") { return .hdf5 }
        if container == "an NI TDMS file" { return .tdms }
        return nil
    }
}
