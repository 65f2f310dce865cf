public import Foundation

/// The test process's scratch folders: all under one root in the temporary directory,
/// removed with everything in them when the process exits. Why: harnesses hand out paths
/// and clients that outlive them, so no value knows when its folder is done with; before
/// this every CLI account test left its home behind (the save loop's store is a gigabyte),
/// and 900 homes, 41 GB, had filled a CI machine's disk.
public enum TestScratch {
    /// `TMPDIR/sonde-tests-PID-UUID`, made on first use.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sonde-tests-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()

    /// A new, empty folder of its own under `root`, named `prefix-UUID`.
    public static func folder(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
