import Foundation
import SondeCore

/// What every manifest in an output folder says (every shard's): the latest run of each,
/// and for each output the `ok` line that made it, with the `input` line it was made from.
/// A rerun and `sonde merge` trust an output only when the file matches that line.
public struct DatasetRecords {
    public struct Made: Sendable {
        public var input: DatasetManifest.Input
        public var result: DatasetManifest.Result
    }

    /// Each manifest file's name and its sections, in name order.
    public private(set) var files: [(name: String, sections: [DatasetManifest.Section])] = []
    /// The latest `ok` line of each output, by its path in the folder.
    public private(set) var made: [String: Made] = [:]
    /// Torn lines that were ignored, one line each.
    public private(set) var warnings: [String] = []

    /// Reads `folder/manifest*.jsonl`; a folder without any is an empty record.
    /// - Throws: what `DatasetManifest.read(path:)` throws.
    public init(folder: String) throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix("manifest") && $0.hasSuffix(".jsonl") }.sorted()
        for name in names {
            let contents = try DatasetManifest.read(path: folder + "/" + name)
            warnings += contents.warnings
            files.append((name, contents.sections))
            for section in contents.sections {
                let inputs = Dictionary(section.inputs.map { ($0.index, $0) }, uniquingKeysWith: { $1 })
                for result in section.results.values.sorted(by: { $0.index < $1.index }) where result.status == .ok {
                    guard let output = result.output, let input = inputs[result.index] else { continue }
                    made[output] = Made(input: input, result: result)
                }
            }
        }
    }
}
