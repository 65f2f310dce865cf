import Foundation

/// A fresh directory under the system's temporary directory, for benchmark inputs and
/// outputs made in set-up; `remove()` deletes it and everything in it.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String) throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` in this directory and returns its path.
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
