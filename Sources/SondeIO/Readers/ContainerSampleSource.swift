import SondeCore

/// A MATLAB, HDF5 or TDMS recording as a `SampleSource`: the chosen arrays as channels, read
/// in slabs by the format's reader (memory bounded by the buffer, not the file), named by
/// variable, at the rate from `--rate`, a MAT scalar, an HDF5 attribute or TDMS's
/// `wf_increment`.
final class ContainerSampleSource: SampleSource {
    let format: StreamFormat
    private(set) var notes: [String]
    let expectedFrames: Int?
    private let read: (Int, UnsafeMutableBufferPointer<Double>) throws -> Int
    private var frame = 0
    /// The path, as messages name it.
    private let name: String
    /// The path the reader opened (a copy of standard input's is not what messages say).
    private let openPath: String
    /// Keeps the format's reader (and its open file) alive as long as the source.
    private let reader: AnyObject

    private init(
        name: String, openPath: String, format: StreamFormat, notes: [String], frames: Int, reader: AnyObject,
        read: @escaping (Int, UnsafeMutableBufferPointer<Double>) throws -> Int
    ) {
        self.name = name
        self.openPath = openPath
        self.format = format
        self.notes = notes
        self.expectedFrames = frames
        self.reader = reader
        self.read = read
    }

    func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let frames: Int
        do {
            frames = try read(frame, buffer)
        } catch let error as ContainerError {
            throw error.naming(name, ifAt: openPath)
        }
        // As every reader: NaN, infinities and magnitudes past 1e100 are refused where they
        // are read, naming the sample (they poison a filter and overflow the spectrum).
        let channels = format.channelCount
        var allInside = true
        for index in 0..<(frames * channels) { allInside = allInside && SampleLimits.contains(buffer[index]) }
        if !allInside, let index = (0..<(frames * channels)).first(where: { !SampleLimits.contains(buffer[$0]) }) {
            let value = buffer[index]
            throw SondeError(
                .invalidInput,
                "\(name), channel \(format.channelNames[index % channels]), sample \(frame + index / channels): "
                    + "\(value); expected "
                    + (value.isFinite
                        ? "a magnitude of at most 1e100 (larger samples would overflow the features)"
                        : "a finite number"))
        }
        frame += frames
        return frames
    }

    /// Opens `openPath`, a container of `kind`, as `options` choose.
    /// - Parameter name: what messages and notes call the file: `openPath` unless given
    ///   (`stdin` for standard input, read through the redirected file or a copy).
    /// - Throws: `SondeError` naming the file and what was expected (a missing variable
    ///   lists those that exist; a missing rate lists the scalars or attributes found).
    static func open(
        _ openPath: String, kind: ContainerKind, options: SampleSourceOptions, name: String? = nil
    ) throws -> ContainerSampleSource {
        let path = name ?? openPath
        let container = options.container
        let orientation = try container.arrayOrientation()
        do {
            switch kind {
            case .mat:
                if container.rateAttribute != nil {
                    throw SondeError(
                        .invalidArgument, "--rate-attribute: \(path) is a MATLAB file; use --rate-variable")
                }
                let file = try MATFile(path: openPath)
                let reader = try MATChannelReader(file: file, variables: container.variables, orientation: orientation)
                let rate = try options.sampleRate ?? file.sampleRate(variable: container.rateVariable)
                return try make(
                    path, openPath: openPath, rate: rate, names: reader.channels.map(\.name), notes: reader.notes,
                    frames: reader.frameCount, reader: reader
                ) { frame, buffer in try reader.read(from: frame, into: buffer) }
            case .hdf5:
                if container.rateVariable != nil {
                    throw SondeError(.invalidArgument, "--rate-variable: \(path) is an HDF5 file; use --rate-attribute")
                }
                let file = try HDF5File(path: openPath)
                let (datasets, notes) = try container.variables.map { ($0, []) } ?? defaultDatasets(file, name: path)
                let reader = try HDF5ChannelReader(file: file, datasets: datasets, orientation: orientation)
                let rate = try options.sampleRate ?? file.sampleRate(attribute: container.rateAttribute, of: datasets)
                return try make(
                    path, openPath: openPath, rate: rate, names: reader.channels.map(\.name), notes: notes,
                    frames: reader.frameCount,
                    reader: reader
                ) { frame, buffer in try reader.read(from: frame, into: buffer) }
            case .tdms:
                if container.rateVariable != nil || container.rateAttribute != nil || container.orientation != "auto" {
                    throw SondeError(
                        .invalidArgument,
                        "\(path) is a TDMS file: its channels are 1-D and its rate is wf_increment (or --rate); "
                            + "--rate-variable, --rate-attribute and --orientation do not apply")
                }
                let file = try TDMSFile(path: openPath)
                let (selection, notes) =
                    try container.variables.map { names in
                        (
                            try names.map { name throws(ContainerError) in try file.channelIndex(named: name) },
                            [String]()
                        )
                    } ?? defaultChannels(file, name: path)
                let reader = try TDMSChannelReader(file: file, channels: selection)
                guard let rate = try options.sampleRate ?? file.sampleRate(ofChannels: selection) else {
                    throw SondeError(
                        .invalidArgument,
                        "\(path): its channels have no wf_increment property, so no sample rate; pass --rate HZ")
                }
                return try make(
                    path, openPath: openPath, rate: rate, names: selection.map { file.channels[$0].path },
                    notes: notes + file.notes,
                    frames: reader.frameCount, reader: reader
                ) { frame, buffer in try reader.read(from: frame, into: buffer) }
            }
        } catch let error as SondeError {
            throw error
        } catch let error as ContainerError {
            throw SondeError(error.kind == .io ? .io : .invalidInput, error.naming(path, ifAt: openPath).description)
        }
    }

    private static func make(
        _ path: String, openPath: String, rate: Double, names: [String], notes: [String], frames: Int,
        reader: AnyObject,
        read: @escaping (Int, UnsafeMutableBufferPointer<Double>) throws -> Int
    ) throws -> ContainerSampleSource {
        guard SampleLimits.rates.contains(rate) else {
            throw SondeError(
                .invalidInput, "\(path): a sample rate of \(rate) Hz; expected a rate from \(SampleLimits.ratesText)")
        }
        return ContainerSampleSource(
            name: path, openPath: openPath, format: StreamFormat(sampleRate: rate, channelNames: names),
            notes: notes.map { "\(path): \($0)" },
            frames: frames, reader: reader, read: read)
    }

    /// Every readable numeric dataset of the file's most common length, and a note.
    private static func defaultDatasets(_ file: HDF5File, name: String) throws -> ([String], [String]) {
        let readable = file.objects.filter { $0.kind == .dataset && $0.refusal == nil && $0.count > 1 }
        let lengths = Dictionary(grouping: readable) { $0.shape.max() ?? 0 }.mapValues(\.count)
        guard let best = lengths.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else {
            throw SondeError(.invalidInput, "\(name): no numeric 1-D or 2-D dataset to read")
        }
        let taken = readable.filter { ($0.shape.max() ?? 0) == best }.map(\.path)
        let skipped = file.objects.filter { $0.kind == .dataset && !taken.contains($0.path) }.map(\.path)
        var note = "read \(taken.joined(separator: ", ")) (\(best) samples each)"
        if !skipped.isEmpty { note += "; skipped " + skipped.joined(separator: ", ") }
        return (taken, [note + "; choose with --variables"])
    }

    /// Every numeric channel of the file's most common length, and a note.
    private static func defaultChannels(_ file: TDMSFile, name: String) throws -> ([Int], [String]) {
        let readable = file.channels.indices.filter {
            file.channels[$0].dataType.isNumeric && file.channels[$0].count > 0
                && TDMSChannelReader.scaling(of: file.channels[$0], in: file) == nil
        }
        let lengths = Dictionary(grouping: readable) { file.channels[$0].count }.mapValues(\.count)
        guard let best = lengths.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else {
            throw SondeError(.invalidInput, "\(name): no numeric channel to read")
        }
        let taken = readable.filter { file.channels[$0].count == best }
        let skipped = file.channels.indices.filter { !taken.contains($0) }.map { file.channels[$0].path }
        var note = "read \(taken.map { file.channels[$0].path }.joined(separator: ", ")) (\(best) samples each)"
        if !skipped.isEmpty { note += "; skipped " + skipped.joined(separator: ", ") }
        return (taken, [note + "; choose with --variables"])
    }
}

/// The containers of named arrays sonde reads.
enum ContainerKind: String, Sendable {
    case mat = "MATLAB"
    case hdf5 = "HDF5"
    case tdms = "TDMS"
}
