import Foundation
import SondeCore
public import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// What a dataset run (`--output-dir`) will do: its shard's inputs, which of them are
/// done already, and the manifest it appends to.
public struct DatasetPlan {
    /// Why inputs of the shard are measured (again) or skipped, for the run's summary.
    public struct Counts: Sendable, Equatable {
        /// Outputs that match their `ok` line, of inputs unchanged since: skipped.
        public var skipped = 0
        /// Inputs with no output recorded yet (or only a failure).
        public var new = 0
        /// Outputs recorded but gone.
        public var missingOutputs = 0
        /// Outputs whose size or checksum differ from their `ok` line.
        public var damagedOutputs = 0
        /// Inputs whose size or time (or checksum, with `--verify-inputs`) changed since
        /// their output was made.
        public var changedInputs = 0
        /// Outputs recorded by an older sonde, without the checksums and times to verify
        /// them (or, with `--verify-inputs`, without the input's checksum).
        public var unverified = 0
    }

    /// The inputs to measure now, with their index in the whole dataset.
    public var todo: [(index: Int, input: SampleInput)]
    public var counts = Counts()
    /// Inputs of the shard.
    public var shardInputs: Int
    public let manifest: ManifestWriter
    /// Held for the whole run: another run into the same folder and shard is refused.
    public let lock: DatasetLock
    /// Torn manifest lines that were ignored.
    public var warnings: [String]

    /// Locks the shard, checks the folder against this run, then records the run and its
    /// inputs in the shard's manifest.
    /// - Parameter verifyInputs: also compare each input's CRC-32C with the manifest's.
    /// - Throws: `SondeError(.invalidArgument)` when another process runs into the same
    ///   folder and shard, the folder holds outputs made with other settings or another
    ///   sonde build, or two inputs would write the same output;
    ///   `DatasetManifest.Damaged` when a manifest cannot be trusted.
    public init(
        inputs: [SampleInput], outputs: DatasetOutputs, shard: Shard?, overwrite: Bool, verifyInputs: Bool = false,
        run: DatasetManifest.Run
    ) throws {
        let selected = inputs.enumerated().filter { shard?.contains($0.element.name) ?? true }
        try outputs.checkDistinct(selected.map(\.element))
        try Self.createFolder(outputs.folder)
        let manifestName = DatasetManifest.fileName(shard: shard)
        lock = try DatasetLock.acquire(
            path: outputs.folder + "/." + manifestName + ".lock",
            what: "--output-dir \(outputs.folder) (shard \(shard?.description ?? "0/1"))")
        let lines = try selected.map { index, input in
            try Self.inputLine(index: index, input: input, outputs: outputs, checksum: verifyInputs)
        }
        // The settings check and the run line under one lock for the whole folder, so two
        // shards started together with other settings cannot both find it empty.
        let folderLock = try DatasetLock.wait(path: outputs.folder + "/.settings.lock")
        defer { folderLock.release() }
        let records = try DatasetRecords(folder: outputs.folder)
        warnings = records.warnings
        try Self.checkCompatible(records, with: run, folder: outputs.folder)
        manifest = try ManifestWriter(path: outputs.folder + "/" + manifestName)
        var run = run
        run.inputs = selected.count
        run.allInputs = inputs.count
        let previous = records.files.first { $0.name == manifestName }?.sections.last
        let sameInputs = previous.map { $0.inputs == lines && $0.run.allInputs == inputs.count } ?? false
        run.sameInputs = sameInputs ? true : nil
        try manifest.append(run)
        if !sameInputs {
            for line in lines { try manifest.append(line) }
        }
        folderLock.release()
        todo = []
        shardInputs = selected.count
        for ((index, input), line) in zip(selected, lines) {
            if !overwrite, try isDone(line, records: records, folder: outputs.folder) {
                counts.skipped += 1
            } else {
                todo.append((index, input))
            }
        }
    }

    /// Whether `line`'s output can be kept, counting why not.
    private mutating func isDone(_ line: DatasetManifest.Input, records: DatasetRecords, folder: String) throws -> Bool
    {
        guard let made = records.made[line.output] else {
            counts.new += 1
            return false
        }
        guard made.input.isUnchanged(comparedWith: line) else {
            if made.input.mtime == nil || (line.crc32c != nil && made.input.crc32c == nil) {
                counts.unverified += 1
            } else {
                counts.changedInputs += 1
            }
            return false
        }
        switch made.result.mismatch(try FileChecksum.of(path: folder + "/" + line.output)) {
        case nil:
            return true
        case "missing"?:
            counts.missingOutputs += 1
        default:
            counts.damagedOutputs += 1
        }
        return false
    }

    /// An input's line: its size and time now (and checksum, when asked).
    static func inputLine(
        index: Int, input: SampleInput, outputs: DatasetOutputs, checksum: Bool
    ) throws -> DatasetManifest.Input {
        var status = stat()
        let found = stat(input.path, &status) == 0
        let crc = checksum && found ? try FileChecksum.of(path: input.path).map { CRC32C.hex($0.crc32c) } : nil
        return DatasetManifest.Input(
            index: index, input: input.name, path: input.path, output: outputs.relativePath(for: input.name),
            size: found ? Int(status.st_size) : nil,
            mtime: found ? Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec) : nil,
            crc32c: crc)
    }

    /// Refuses a folder whose manifests were made by another build or with other
    /// settings: its outputs and this run's would not belong together.
    static func checkCompatible(_ records: DatasetRecords, with run: DatasetManifest.Run, folder: String) throws {
        for (name, sections) in records.files {
            guard let first = sections.first?.run, !first.isCompatible(with: run) else { continue }
            let what = first.settings != run.settings ? "other settings" : "sonde \(first.sonde) (\(first.build) build)"
            throw SondeError(
                .invalidArgument,
                "--output-dir \(folder): its outputs were made with \(what) (\(name)); use the same settings and build, or a new --output-dir"
            )
        }
    }

    static func createFolder(_ folder: String) throws {
        var partial = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            partial += (partial.isEmpty || partial.hasSuffix("/") ? "" : "/") + part
            if mkdir(partial, 0o777) != 0, errno != EEXIST {
                throw SondeError(.io, "cannot create the folder '\(partial)': \(String(cString: strerror(errno)))")
            }
        }
    }
}
