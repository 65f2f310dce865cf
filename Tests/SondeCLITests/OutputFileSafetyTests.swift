import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `-o` publishes a complete file or nothing: under signals at random moments, over files
/// with their own permissions, and through symbolic links.
@Suite struct OutputFileSafetyTests {
    private func scratch() throws -> URL {
        try TestScratch.folder("sonde-output")
    }

    /// A raw input long enough that a run takes a few hundred milliseconds.
    private func rawInput(in folder: URL) throws -> URL {
        var generator = SplitMix64(seed: 3)
        var data = Data(capacity: 8 * 400_000)
        for _ in 0..<400_000 {
            var value = Double(generator.next() % 2000) / 1000 - 1
            withUnsafeBytes(of: &value) { data.append(contentsOf: $0) }
        }
        let url = folder.appendingPathComponent("input.f64")
        try data.write(to: url)
        return url
    }

    /// 50 runs over an existing file, each sent SIGINT or SIGTERM at a random moment: the
    /// file is then the old one or the complete new one, and nothing else is left.
    @Test func signalsAtRandomMomentsLeaveTheOldFileOrTheCompleteNewOne() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try rawInput(in: folder)
        let arguments = [
            "process", input.path, "--rate", "1000", "--window", "64", "--jobs", "1", "--features", "rms,peak,kurtosis",
        ]
        let complete = try SondeBinary.run(arguments, in: folder)
        #expect(complete.status == 0)
        var generator = SplitMix64(seed: 50)
        var (old, new) = (0, 0)
        for run in 0..<50 {
            let output = folder.appendingPathComponent("out.csv")
            try "OLD \(run)\n".write(to: output, atomically: false, encoding: .utf8)
            let process = Process()
            process.executableURL = SondeBinary.url
            process.arguments = arguments + ["-o", output.path]
            process.currentDirectoryURL = folder
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(generator.next() % 400_000))
            let signal = generator.next() % 2 == 0 ? SIGINT : SIGTERM
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let text = try String(contentsOf: output, encoding: .utf8)
            if text == "OLD \(run)\n" {
                old += 1
                // Before its handler is installed the default action ends sonde (the shell
                // then reports the same 128 + signal); after it, sonde exits 128 + signal.
                let diedBySignal = process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
                #expect(diedBySignal || process.terminationStatus == 128 + signal)
            } else {
                #expect(text == complete.stdout, "run \(run): neither the old file nor the complete new one")
                new += 1
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["input.f64", "out.csv"])
        }
        #expect(old + new == 50)
    }

    @Test func anExistingFileKeepsItsPermissions() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("private.csv")
        try "secret\n".write(to: output, atomically: false, encoding: .utf8)
        chmod(output.path, 0o600)
        let result = try SondeBinary.run(
            ["process", "motor.wav", "--features", "rms", "-o", output.path],
            in: Fixtures.packageRoot.appendingPathComponent("sample-data"))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOf: output, encoding: .utf8).hasPrefix("time,channel"))
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsReplaced() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.csv")
        try "old\n".write(to: target, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try SondeBinary.run(
            ["process", "motor.wav", "--features", "rms", "-o", link.path],
            in: Fixtures.packageRoot.appendingPathComponent("sample-data"))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("time,channel"))
    }
}
