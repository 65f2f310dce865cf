import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A dataset run stopped by SIGTERM in the middle of an input (what `scancel` does to a
/// Slurm task) records that input as nothing, never as a finished output: the rerun measures
/// it again and the merge equals a single run byte for byte.
@Suite struct DatasetSignalTests {
    /// Bytes the process has read so far (`rchar` of /proc/PID/io).
    private func bytesRead(by pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func anInputCutShortIsMeasuredAgainOnTheRerun(signal: Int32) throws {
        let root = try TestScratch.folder("sonde-cut")
        let data = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Two inputs of 4 M samples (16 MB each): the signal lands while the first is read.
        var generator = SplitMix64(seed: 3)
        for name in ["a.f32", "b.f32"] {
            var bytes = [UInt8]()
            bytes.reserveCapacity(16 << 20)
            for _ in 0..<(4 << 20) {
                let value = Float(Int(generator.next() % 2001) - 1000) / 1000
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
            try Data(bytes).write(to: data.appendingPathComponent(name))
        }
        let measure = ["--rate", "48000", "--features", "rms", "--window", "1024"]
        let single = try SondeBinary.run(["process", "data", "-o", "single.csv"] + measure, in: root)
        #expect(single.status == 0, "\(single.stderr)")

        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = ["process", "data", "--output-dir", "out", "--jobs", "1", "--quiet"] + measure
        process.currentDirectoryURL = root
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, bytesRead(by: process.processIdentifier) < 4 << 20, Date() < deadline {
            usleep(1_000)
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try #require(process.terminationStatus == 128 + signal, "the run ended before the signal; make inputs longer")
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.jsonl"), encoding: .utf8)
        #expect(!manifest.contains("\"status\":\"ok\""), "an input cut short was recorded: \(manifest)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/a.f32.csv").path))

        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out", "--quiet"] + measure, in: root)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let merged = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(
            try Data(contentsOf: root.appendingPathComponent("merged.csv"))
                == (try Data(contentsOf: root.appendingPathComponent("single.csv"))))
    }
}
