public import Foundation

/// Runs the built `sonde` executable as a user would, capturing its output.
public enum SondeBinary {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The products directory the test runner was started from (`.build/debug` or a
    /// `--scratch-path`'s), where SwiftPM also put `sonde`.
    public static var url: URL { product("sonde") }

    /// Another executable of the package, built beside `sonde` (a test tool).
    public static func product(_ name: String) -> URL {
        var directory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
        // The runner may sit inside an .xctest bundle directory.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "MacOS"
            || directory.lastPathComponent == "Contents"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// - Parameters:
    ///   - arguments: command-line arguments after `sonde`.
    ///   - stdin: bytes for standard input (empty input if nil).
    ///   - directory: working directory (the fixtures folder by default, so paths stay short).
    @discardableResult
    ///   - executable: another program to run instead (a shell that sets limits first).
    public static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL = Fixtures.directory,
        environment: [String: String] = [:],
        executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Read both pipes concurrently with writing stdin so a chatty child never blocks.
        let outData = LockedData(), errData = LockedData()
        let group = DispatchGroup()
        for (handle, sink) in [(output.fileHandleForReading, outData), (errors.fileHandleForReading, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(handle.readDataToEndOfFile())
                group.leave()
            }
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self)
        )
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
