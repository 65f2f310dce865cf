import CSystemCalls
public import SondeCore
public import SondeIO
public import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

/// Writes each input's records to its own file (`--output-dir`) and records each input's
/// end in the manifest: the sink of a dataset run.
///
/// Each output is written to an unnamed file and named only once its input has ended
/// well, so an interrupted or killed run leaves finished outputs and nothing else, and a
/// rerun can skip every output that exists.
public final class DatasetSink: PipelineSink {
    private let outputs: DatasetOutputs
    private let layout: RecordLayout
    private let parquet: ParquetWriterOptions
    private let manifest: ManifestWriter
    /// The dataset index of each graph input (the graph sees only the inputs to do).
    private let datasetIndices: [Int]
    private let report: (String) -> Void
    private let frameLength: Int
    private var writer: (any RecordWriter)?
    /// The run's workers, for each input's writer.
    private var work: ParallelWork?
    private var output: OutputFile?
    private var createdFolders: Set<String> = []
    /// Results of outputs committed but not yet made durable.
    private var pending: [DatasetManifest.Result] = []
    private var lastSync = MonotonicClock.now()
    /// Inputs that failed (with `keepGoing`).
    public private(set) var failures = 0
    public private(set) var notes: [String] = []

    /// - Parameters:
    ///   - datasetIndices: for each graph input, its index in the whole dataset.
    ///   - report: says an input's failure on standard error.
    public init(
        outputs: DatasetOutputs, layout: RecordLayout, parquet: ParquetWriterOptions, manifest: ManifestWriter,
        datasetIndices: [Int], frameLength: Int, report: @escaping (String) -> Void
    ) {
        self.parquet = parquet
        self.frameLength = frameLength
        self.outputs = outputs
        self.layout = layout
        self.manifest = manifest
        self.datasetIndices = datasetIndices
        self.report = report
    }

    public func begin(input index: Int, name: String, format: StreamFormat) throws {
        let path = outputs.path(for: name)
        try createFolders(for: path)
        let output = try OutputFile(atomicallyReplacing: path, syncOnCommit: false, checksummed: true)
        self.output = output
        let writer = try RecordWriters.make(format: outputs.format, layout: layout, output: output, parquet: parquet)
        try writer.lend(work)
        self.writer = writer
    }

    public func lend(_ work: ParallelWork?) throws {
        self.work = work
    }

    public func write(_ batch: RecordBatch) throws {
        try writer?.write(batch)
    }

    public func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {
        let datasetIndex = datasetIndices[index]
        switch outcome {
        case .finished(let summary) where summary.interrupted:
            // Cut short by SIGINT/SIGTERM: no output and no manifest line, so a rerun redoes it.
            abandonCurrent()
            return
        case .finished(let summary):
            try writer?.finish()
            notes += summary.notes(name: name, frameLength: frameLength)
            // The writer has committed the output: every byte went through its checksum.
            pending.append(
                DatasetManifest.Result(
                    index: datasetIndex, status: .ok, output: outputs.relativePath(for: name),
                    samplesPerChannel: summary.samplesPerChannel, frames: summary.frames, records: summary.records,
                    bytes: output?.bytesWritten, crc32c: output?.checksum.map { CRC32C.hex($0.value) }))
        case .failed(let error):
            output?.abandon()
            failures += 1
            // A SondeError names the input's path already (and the line and column).
            let message = (error as? SondeError)?.description ?? "\(name): \(error)"
            report(message)
            pending.append(DatasetManifest.Result(index: datasetIndex, status: .failed, error: message))
        }
        writer = nil
        output = nil
        if pending.count >= 64 || MonotonicClock.now() &- lastSync > 1_000_000_000 { try recordResults() }
    }

    /// Makes the outputs committed so far durable (one `syncfs` for all of them), then
    /// records them in the manifest: an `ok` line always names an output on disk, so a
    /// rerun after a crash or power loss trusts those and redoes the others.
    public func recordResults() throws {
        lastSync = MonotonicClock.now()
        guard !pending.isEmpty else { return }
        let folder = open(outputs.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            defer { close(folder) }
            guard sonde_syncfs(folder) == 0 else {
                throw SondeError(.io, "cannot write '\(outputs.folder)': \(String(cString: strerror(errno)))")
            }
        }
        for result in pending { try manifest.append(result) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Drops the output of the input in progress (the run was interrupted).
    public func abandonCurrent() {
        output?.abandon()
        writer = nil
        output = nil
    }

    private func createFolders(for path: String) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        guard !createdFolders.contains(folder) else { return }
        try DatasetPlan.createFolder(folder)
        createdFolders.insert(folder)
    }
}

extension PipelineGraph.InputSummary {
    /// What to tell the user about an input that ended well: the source's notes, and
    /// when it was shorter than one window.
    func notes(name: String, frameLength: Int) -> [String] {
        var notes = self.notes
        if frames == 0 {
            notes.append(
                "\(name): \(samplesPerChannel) samples per channel, fewer than one window of \(frameLength): no records"
            )
        }
        return notes
    }
}
