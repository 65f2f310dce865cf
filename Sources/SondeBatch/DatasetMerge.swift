import SondeCore
public import SondeIO
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Joins the per-input outputs of a dataset run, every shard's, into the one output that
/// a single run with `-o` writes, byte for byte, and says what is missing.
public struct DatasetMerge {
    /// The outputs to join, in the single run's order (paths inside the folder).
    public private(set) var outputs: [String] = []
    public let format: OutputFormat
    /// Problems that keep the merge from being complete, one line each.
    public private(set) var problems: [String] = []

    /// Reads every manifest in `folder` (the latest run of each shard).
    /// - Throws: `SondeError` when the folder has no manifest, or manifests that do not belong
    ///   together (other settings, builds, shard counts or dataset sizes).
    public init(folder: String) throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("manifest") && $0.hasSuffix(".jsonl") }.sorted()
        guard !names.isEmpty else {
            throw SondeError(.invalidInput, "\(folder): no manifest*.jsonl; expected the --output-dir of a `sonde process` run")
        }
        var latest: [(name: String, section: DatasetManifest.Section)] = []
        for name in names {
            if let section = try DatasetManifest.read(path: folder + "/" + name).last { latest.append((name, section)) }
        }
        guard let first = latest.first else { throw SondeError(.invalidInput, "\(folder): its manifests are empty") }
        guard let parsedFormat = OutputFormat(rawValue: first.section.run.settings.format) else {
            throw SondeError(.invalidInput, "\(folder)/\(first.name): unknown format '\(first.section.run.settings.format)'")
        }
        format = parsedFormat
        let shardCount = try Shard(parsing: first.section.run.shard).count
        var shardsSeen = Set<Int>()
        var entries: [Int: (input: DatasetManifest.Input, result: DatasetManifest.Result?)] = [:]
        for (name, section) in latest {
            let run = section.run
            guard run.isCompatible(with: first.section.run), run.allInputs == first.section.run.allInputs else {
                throw SondeError(
                    .invalidInput,
                    "\(folder): \(name) and \(first.name) come from different settings, builds or versions of the dataset; rerun the older shards")
            }
            let shard = try Shard(parsing: run.shard)
            guard shard.count == shardCount else {
                throw SondeError(.invalidInput, "\(folder): \(name) is shard \(run.shard), \(first.name) one of \(shardCount)")
            }
            shardsSeen.insert(shard.index)
            for input in section.inputs { entries[input.index] = (input, section.results[input.index]) }
        }
        for missing in (0..<shardCount).filter({ !shardsSeen.contains($0) }) {
            problems.append("shard \(missing)/\(shardCount) has not run (no \(DatasetManifest.fileName(shard: Shard(index: missing, count: shardCount))))")
        }
        for index in 0..<first.section.run.allInputs {
            guard let entry = entries[index] else { continue }  // its shard has not run: said above
            switch entry.result?.status {
            case .ok?, .skipped?:
                if access(folder + "/" + entry.input.output, R_OK) == 0 {
                    outputs.append(entry.input.output)
                } else {
                    problems.append("\(entry.input.input): its output \(entry.input.output) is missing")
                }
            case .failed?:
                problems.append("\(entry.input.input): failed: \(entry.result?.error ?? "")")
            case nil:
                problems.append("\(entry.input.input): not measured yet (its shard's run was interrupted; run it again)")
            }
        }
    }

    /// Writes the joined output: one header (CSV), one array (JSON), or the lines (NDJSON).
    /// - Throws: `SondeError(.unsupported)` for Parquet outputs; `.io` on a read or write error.
    public func write(folder: String, to output: OutputFile) throws {
        if format == .parquet {
            throw SondeError(
                .unsupported,
                "\(folder): merging Parquet outputs is not supported yet; read them as one dataset (e.g. DuckDB's '\(folder)/**/*.parquet')")
        }
        var wroteRecords = false
        for (position, relative) in outputs.enumerated() {
            let bytes = try Self.contents(of: folder + "/" + relative)
            switch format {
            case .csv:
                // Every file starts with the same header; the first one's stays.
                let body = position == 0 ? bytes[...] : bytes[(bytes.firstIndex(of: 10).map { $0 + 1 } ?? bytes.count)...]
                try output.write(body)
            case .ndjson:
                try output.write(bytes)
            case .parquet:
                continue  // refused above
            case .json:
                // "[\n" objects joined by ",\n" "\n]\n", or "[]\n" with none.
                guard bytes.count > 5, bytes.starts(with: Array("[\n".utf8)) else { continue }
                try output.write(Array((wroteRecords ? ",\n" : "[\n").utf8))
                try output.write(bytes[2..<(bytes.count - 3)])
                wroteRecords = true
            }
        }
        if format == .json { try output.write(Array((wroteRecords ? "\n]\n" : "[]\n").utf8)) }
        try output.commit()
    }

    private static func contents(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SondeError(.io, "cannot read '\(path)'")
        }
        return [UInt8](data)
    }
}
