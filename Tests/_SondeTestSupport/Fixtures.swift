public import Foundation

/// Paths of the committed fixtures, found from this file's location so tests run from any
/// working directory.
public enum Fixtures {
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // _SondeTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    public static let directory = packageRoot.appendingPathComponent("Tests/Fixtures")

    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }
}
