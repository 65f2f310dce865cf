import Foundation
import _SondeTestSupport

/// Datasets of short CSV clips for the dataset tests, and the files under a folder.
enum DatasetFixture {
    /// `count` short 2-channel CSV clips in nested folders (rate from `--rate`), in
    /// `root/data` when `inData`, else in `root`.
    static func make(count: Int, rows: Int = 96, inData: Bool = false) throws -> URL {
        let root = try TestScratch.folder("sonde-dataset")
        let data = inData ? root.appendingPathComponent("data") : root
        var generator = SplitMix64(seed: 7)
        for index in 0..<count {
            let folder = data.appendingPathComponent("machine_\(index % 3)/id_\(index % 2)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try clip(index: index, rows: rows, generator: &generator).write(
                to: folder.appendingPathComponent("clip_\(String(format: "%04d", index)).csv"), atomically: false,
                encoding: .utf8)
        }
        return root
    }

    /// One clip's CSV text.
    static func clip(index: Int, rows: Int, generator: inout SplitMix64) -> String {
        var text = "x,y\n"
        for row in 0..<rows {
            let noise = Double(generator.next() % 1000) / 1000 - 0.5
            text += "\(sin(Double(row) * 0.3 + Double(index)) + noise),\(Double(row % 7) - 3 + noise)\n"
        }
        return text
    }

    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}
