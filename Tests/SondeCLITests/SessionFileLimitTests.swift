import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 23, item 5: the session file, the pairing file and device profiles are read with a
/// type and size limit. A symlink to `/dev/zero` grew `whoami` to 5.8 GB; a FIFO blocked it.
@Suite struct SessionFileLimitTests {
    enum Planted: String, CaseIterable, Sendable {
        case symlinkToDevZero, fifo, directory, oversized
    }

    /// Puts something that is not a small regular file at `path`.
    private static func plant(_ planted: Planted, at path: String) throws {
        switch planted {
        case .symlinkToDevZero:
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        case .fifo:
            #expect(mkfifo(path, 0o600) == 0)
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .oversized:
            try Data(repeating: 0x61, count: 1 << 21).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Runs sonde, killing it after `seconds`; the result's `timedOut` says whether it had to.
    private static func run(
        _ arguments: [String], in directory: URL, environment: [String: String], seconds: Double
    ) throws
        -> (status: Int32, stderr: String, timedOut: Bool)
    {
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stderr, timedOut)
    }

    @Test(arguments: Planted.allCases)
    func whoamiRefusesASessionFileThatIsNotASmallRegularFile(_ planted: Planted) throws {
        let user = try AccountUser()
        defer { try? FileManager.default.removeItem(at: user.home.deletingLastPathComponent()) }
        try Self.plant(planted, at: user.sessionFile)
        let result = try Self.run(["whoami"], in: user.home, environment: user.environment, seconds: 20)
        #expect(!result.timedOut, "whoami did not end within 20 s")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("session file"), "\(result.stderr)")
    }

    @Test(arguments: Planted.allCases)
    func streamRefusesAProfileThatIsNotASmallRegularFile(_ planted: Planted) throws {
        let directory = try TestScratch.folder("sonde-profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.plant(planted, at: directory.appendingPathComponent("p.profile").path)
        let result = try Self.run(
            ["stream", "--profile", "p.profile", "--frames", "1", "--as-fast-as-possible"], in: directory,
            environment: [:],
            seconds: 20)
        #expect(!result.timedOut, "stream did not end within 20 s")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("p.profile"), "\(result.stderr)")
    }
}
