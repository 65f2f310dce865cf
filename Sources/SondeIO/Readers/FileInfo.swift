import SondeCore

/// What a file holds, before measuring it (`sonde info`): its format, and every variable,
/// dataset or channel with its type, shape and the rate or time properties found, with
/// whether `--variables` can read it (and why not).
public struct FileInfo: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// What `--variables` takes: `X105_DE_time`, `/group/dataset`, `group/channel`; for a
        /// sound, CSV or raw file, the channel names sonde gives.
        public var name: String
        public var type: String
        /// `12000x1`, `2x48000`, `scalar`, or a sample count.
        public var shape: String
        /// Rate, time and scalar values found: `wf_increment=2e-05`, `sample_rate=51200`, `= 1797`.
        public var properties: [String]
        /// Why it cannot be a channel; nil when it can.
        public var refusal: String?
    }

    public var path: String
    public var format: String
    /// The file's own rate, when it says one (a sound header, TDMS's wf_increment).
    public var sampleRate: Double?
    public var entries: [Entry]
    public var notes: [String]

    /// Reads what `path` holds without reading its samples (a CSV file's rate may need its
    /// time column).
    /// - Throws: `SondeError` as opening the file for measuring would.
    public static func read(path: String, options: SampleSourceOptions = SampleSourceOptions()) throws -> FileInfo {
        var kind = try SampleSources.kind(of: path, options: options)
        // Standard input: a container is listed from the file or copy it is read from.
        var content: SampleSources.StandardInputContent?
        if path == "-", options.sampleType == nil {
            let found = try SampleSources.standardInput()
            if case .container(let container, let openPath, let spool) = found {
                defer { spool?.finish() }
                do {
                    var info = try self.container(container, openPath)
                    info.path = OpenedInput.standardInputName
                    return info
                } catch let error as ContainerError {
                    throw SondeError(
                        .invalidInput, error.naming(OpenedInput.standardInputName, ifAt: openPath).description)
                }
            }
            content = found
            kind = .csv
        }
        do {
            switch kind {
            case .container(let container): return try self.container(container, path)
            case .csv, .soundFile, .raw:
                let source =
                    try content.map { try SampleSources.open($0, options: options) }
                    ?? SampleSources.open(path: path, options: options)
                let format = source.format
                let name: String =
                    switch kind {
                    case .csv: "CSV"
                    case .soundFile: "sound file (libsndfile)"
                    case .raw(let type): "raw \(type.rawValue) samples"
                    case .container(let container): container.rawValue
                    }
                let frames = source.expectedFrames.map { "\($0) samples" } ?? "samples"
                return FileInfo(
                    path: path, format: name, sampleRate: format.sampleRate,
                    entries: format.channelNames.map {
                        Entry(name: $0, type: "float64", shape: frames, properties: [], refusal: nil)
                    },
                    notes: [])
            }
        } catch let error as ContainerError {
            throw SondeError(.invalidInput, error.description)
        }
    }

    private static func container(_ kind: ContainerKind, _ path: String) throws -> FileInfo {
        switch kind {
        case .mat: try mat(path)
        case .hdf5: try hdf5(path)
        case .tdms: try tdms(path)
        }
    }

    private static func mat(_ path: String) throws -> FileInfo {
        let catalogue = try MATCatalogue(path: path)
        let values = Dictionary(catalogue.scalars.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let entries = catalogue.variables.map { variable in
            Entry(
                name: variable.path, type: variable.classDescription + (variable.isCompressed ? " (compressed)" : ""),
                shape: variable.dimensionsDescription,
                properties: (values[variable.path] ?? nil).map { ["= \($0.compactDescription)"] } ?? [],
                refusal: variable.isScalar ? "a scalar (a rate for --rate-variable?)" : variable.refusal)
        }
        let version: String =
            switch catalogue.version {
            case .v4: "MATLAB v4 MAT-file"
            case .v5: "MATLAB 5.0 MAT-file (v5/v7)"
            case .v73: "MATLAB 7.3 MAT-file (HDF5)"
            }
        return FileInfo(path: path, format: version, sampleRate: nil, entries: entries, notes: [])
    }

    private static func hdf5(_ path: String) throws -> FileInfo {
        let catalogue = try HDF5Catalogue(path: path)
        let entries = catalogue.objects.filter { $0.path != "/" }.map { object in
            Entry(
                name: object.path, type: object.kind == .dataset ? object.type : object.kind.rawValue,
                shape: object.kind == .dataset ? object.shapeDescription : "",
                properties: object.attributes.map { attribute in
                    "\(attribute.name)=" + (attribute.value.map(\.compactDescription) ?? "\(attribute.type)")
                },
                refusal: object.kind == .dataset ? object.refusal : "a group")
        }
        return FileInfo(path: path, format: "HDF5", sampleRate: nil, entries: entries, notes: [])
    }

    private static func tdms(_ path: String) throws -> FileInfo {
        let file = try TDMSFile(path: path)
        let entries = file.channels.map { channel in
            var properties: [String] = []
            if let increment = channel.waveformIncrement { properties.append("wf_increment=\(increment)") }
            if let start = channel.properties["wf_start_time"] { properties.append("wf_start_time=\(start)") }
            let scaling = TDMSChannelReader.scaling(of: channel, in: file)
            let refusal =
                !channel.dataType.isNumeric
                ? "not numeric" : channel.count == 0 ? "empty" : scaling.map { "NI scaling (\($0)), not applied" }
            return Entry(
                name: channel.path, type: channel.dataType.name, shape: "\(channel.count)", properties: properties,
                refusal: refusal)
        }
        let rates = Set(file.channels.compactMap(\.waveformIncrement))
        return FileInfo(
            path: path, format: "NI TDMS", sampleRate: rates.count == 1 ? rates.first.map { 1 / $0 } : nil,
            entries: entries, notes: file.notes)
    }
}
