import Foundation
import SondeCore
public import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// What a dataset run (`--output-dir`) will do: its shard's inputs, which of them are
/// done already, and the manifest it appends to.
public struct DatasetPlan {
    /// The inputs to measure now, with their index in the whole dataset.
    public var todo: [(index: Int, input: SampleInput)]
    /// Inputs of the shard whose output exists (skipped unless `overwrite`).
    public var skipped: Int
    /// Inputs of the shard.
    public var shardInputs: Int
    public let manifest: ManifestWriter

    /// Checks the folder against this run, then records the run and its inputs in the
    /// shard's manifest.
    /// - Throws: `SondeError(.invalidArgument)` when the folder holds outputs made with other
    ///   settings or another sonde build, or two inputs would write the same output.
    public init(
        inputs: [SampleInput], outputs: DatasetOutputs, shard: Shard?, overwrite: Bool, run: DatasetManifest.Run
    ) throws {
        let selected = inputs.enumerated().filter { shard?.contains($0.element.name) ?? true }
        try outputs.checkDistinct(selected.map(\.element.name))
        try Self.createFolder(outputs.folder)
        let done = try Self.recordedOutputs(folder: outputs.folder, compatibleWith: run)
        manifest = try ManifestWriter(path: outputs.folder + "/" + DatasetManifest.fileName(shard: shard))
        var run = run
        run.inputs = selected.count
        run.allInputs = inputs.count
        try manifest.append(run)
        todo = []
        skipped = 0
        shardInputs = selected.count
        for (index, input) in selected {
            var status = stat()
            let size = stat(input.path, &status) == 0 ? Int(status.st_size) : nil
            try manifest.append(
                DatasetManifest.Input(
                    index: index, input: input.name, path: input.path, output: outputs.relativePath(for: input.name),
                    size: size))
        }
        for (index, input) in selected {
            let output = outputs.relativePath(for: input.name)
            if !overwrite, done.contains(output), access(outputs.folder + "/" + output, F_OK) == 0 {
                try manifest.append(DatasetManifest.Result(index: index, status: .skipped))
                skipped += 1
            } else {
                todo.append((index, input))
            }
        }
    }

    /// The outputs the folder's manifests (every shard's) record as written: only those
    /// are skipped, so an output that exists without its `ok` line (a crash between the
    /// two) is made again. Refuses a folder whose manifests were made by another build or
    /// with other settings: its outputs and this run's would not belong together.
    static func recordedOutputs(folder: String, compatibleWith run: DatasetManifest.Run) throws -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var done = Set<String>()
        for name in names.sorted() where name.hasPrefix("manifest") && name.hasSuffix(".jsonl") {
            let sections = try DatasetManifest.read(path: folder + "/" + name)
            for section in sections {
                for result in section.results.values where result.status == .ok {
                    if let output = result.output { done.insert(output) }
                }
            }
            guard let first = sections.first?.run else { continue }
            guard first.isCompatible(with: run) else {
                let what =
                    first.settings != run.settings ? "other settings" : "sonde \(first.sonde) (\(first.build) build)"
                throw SondeError(
                    .invalidArgument,
                    "--output-dir \(folder): its outputs were made with \(what) (\(name)); use the same settings and build, or a new --output-dir"
                )
            }
        }
        return done
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
