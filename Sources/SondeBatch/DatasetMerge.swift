import Foundation
import SondeCore
public import SondeIO

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

    /// Torn manifest lines that were ignored.
    public private(set) var warnings: [String] = []

    /// Reads every manifest in `folder` (the latest run of each shard), and checks every
    /// output it will join against the `ok` line that made it (size and CRC-32C), so a
    /// damaged or replaced output is named here, before a byte is written.
    /// - Throws: `SondeError` when the folder has no manifest, or manifests that do not belong
    ///   together (other settings, builds, shard counts or dataset sizes);
    ///   `DatasetManifest.Damaged` when a manifest cannot be trusted.
    public init(folder: String) throws {
        let records = try DatasetRecords(folder: folder)
        warnings = records.warnings
        guard !records.files.isEmpty else {
            throw SondeError(
                .invalidInput, "\(folder): no manifest*.jsonl; expected the --output-dir of a `sonde process` run")
        }
        let latest = records.files.compactMap { file in file.sections.last.map { (name: file.name, section: $0) } }
        guard let first = latest.first else { throw SondeError(.invalidInput, "\(folder): its manifests are empty") }
        guard let parsedFormat = OutputFormat(rawValue: first.section.run.settings.format) else {
            throw SondeError(
                .invalidInput, "\(folder)/\(first.name): unknown format '\(first.section.run.settings.format)'")
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
                    "\(folder): \(name) and \(first.name) come from different settings, builds or versions of the dataset; rerun the older shards"
                )
            }
            let shard = try Shard(parsing: run.shard)
            guard shard.count == shardCount else {
                throw SondeError(
                    .invalidInput, "\(folder): \(name) is shard \(run.shard), \(first.name) one of \(shardCount)")
            }
            shardsSeen.insert(shard.index)
            for input in section.inputs { entries[input.index] = (input, section.results[input.index]) }
        }
        for missing in (0..<shardCount).filter({ !shardsSeen.contains($0) }) {
            problems.append(
                "shard \(missing)/\(shardCount) has not run (no \(DatasetManifest.fileName(shard: Shard(index: missing, count: shardCount))))"
            )
        }
        for index in 0..<first.section.run.allInputs {
            guard let entry = entries[index] else { continue }  // its shard has not run: said above
            if entry.result?.status == .failed {
                problems.append("\(entry.input.input): failed: \(entry.result?.error ?? "")")
                continue
            }
            guard let made = records.made[entry.input.output] else {
                problems.append(
                    "\(entry.input.input): not measured yet (its shard's run was interrupted; run it again)")
                continue
            }
            guard made.input.isUnchanged(comparedWith: entry.input) else {
                problems.append(
                    "\(entry.input.input): changed since its output was made, or made by an older sonde; run its shard again"
                )
                continue
            }
            let path = folder + "/" + entry.input.output
            if let mismatch = made.result.mismatch(try FileChecksum.of(path: path)) {
                problems.append(
                    "\(entry.input.input): its output \(path) is \(mismatch); run its shard again to redo it")
            } else {
                outputs.append(entry.input.output)
            }
        }
    }

    /// Writes the joined output: one header (CSV), one array (JSON), or the lines (NDJSON).
    /// - Throws: `SondeError(.unsupported)` for Parquet outputs; `.io` on a read or write error.
    public func write(folder: String, to output: OutputFile) throws {
        if format == .parquet {
            throw SondeError(
                .unsupported,
                "\(folder): merging Parquet outputs is not supported yet; read them as one dataset (e.g. DuckDB's '\(folder)/**/*.parquet')"
            )
        }
        var wroteRecords = false
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for (position, relative) in outputs.enumerated() {
            let file = try MergedFile(path: folder + "/" + relative)
            switch format {
            case .csv:
                // Every file starts with the same header; the first one's stays.
                let start = position == 0 ? 0 : try file.offset(afterFirst: 10, chunk: &chunk)
                try file.copy(start..<file.size, to: output, chunk: &chunk)
            case .ndjson:
                try file.copy(0..<file.size, to: output, chunk: &chunk)
            case .parquet:
                continue  // refused above
            case .json:
                // "[\n" objects joined by ",\n" "\n]\n", or "[]\n" with none.
                guard file.size > 5, try file.starts(with: Array("[\n".utf8), chunk: &chunk) else { continue }
                try output.write(Array((wroteRecords ? ",\n" : "[\n").utf8))
                try file.copy(2..<(file.size - 3), to: output, chunk: &chunk)
                wroteRecords = true
            }
        }
        if format == .json { try output.write(Array((wroteRecords ? "\n]\n" : "[]\n").utf8)) }
        try output.commit()
    }
}

/// One per-input output, copied into the merged one a chunk at a time: merging never holds
/// a whole output in memory, however long its recording was.
private final class MergedFile {
    let size: Int
    private let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw SondeError(.io, "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// The offset just past the first `byte` (a line's end), or `size` when there is none.
    func offset(afterFirst byte: UInt8, chunk: inout [UInt8]) throws -> Int {
        var offset = 0
        while offset < size {
            let count = try read(at: offset, into: &chunk)
            if let index = chunk[..<count].firstIndex(of: byte) { return offset + index + 1 }
            offset += count
        }
        return size
    }

    func starts(with prefix: [UInt8], chunk: inout [UInt8]) throws -> Bool {
        guard size >= prefix.count else { return false }
        let count = try read(at: 0, into: &chunk)
        return count >= prefix.count && chunk[..<prefix.count].elementsEqual(prefix)
    }

    func copy(_ range: Range<Int>, to output: OutputFile, chunk: inout [UInt8]) throws {
        var offset = range.lowerBound
        while offset < range.upperBound {
            let count = Swift.min(try read(at: offset, into: &chunk), range.upperBound - offset)
            try output.write(chunk[..<count])
            offset += count
        }
    }

    private func read(at offset: Int, into chunk: inout [UInt8]) throws -> Int {
        let count: Int
        do {
            count = try chunk.withUnsafeMutableBytes { try SystemCall.readFully(descriptor, at: offset, into: $0) }
        } catch {
            throw SondeError(.io, "cannot read '\(path)': \(error)")
        }
        guard count > 0 else { throw SondeError(.io, "cannot read '\(path)': it ended early") }
        return count
    }
}
