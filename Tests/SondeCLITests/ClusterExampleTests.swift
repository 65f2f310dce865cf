import Foundation
import Testing
import _SondeTestSupport

/// The cluster examples in docs/cluster/ run as Slurm and Kubernetes would run them: once
/// per shard index, with the variables those set, and their merge equals a single run.
@Suite struct ClusterExampleTests {
    private let docs = Fixtures.packageRoot.appendingPathComponent("docs/cluster")

    /// Twelve short mono PCM16 WAV clips in nested folders under `root/data`.
    private func makeClips(in root: URL) throws {
        var generator = SplitMix64(seed: 11)
        for index in 0..<12 {
            let folder = root.appendingPathComponent("data/site_\(index % 2)/day_\(index % 3)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let samples = (0..<3000).map { n -> Int16 in
                let tone = sin(Double(n) * 0.05 * Double(index + 1)) * 8000
                return Int16(tone) &+ Int16(truncatingIfNeeded: generator.next() % 512)
            }
            try Self.wav(samples, rate: 8000).write(to: folder.appendingPathComponent("clip\(index).wav"))
        }
    }

    private static func wav(_ samples: [Int16], rate: UInt32) -> Data {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8)); append(36 + bytes); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(rate); append(rate * 2); append(UInt16(2));
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(bytes)
        for sample in samples { append(sample) }
        return data
    }

    private func run(
        _ shellCommand: String, in directory: URL, environment: [String: String]
    ) throws -> SondeBinary.Result {
        var environment = environment
        environment["PATH"] =
            SondeBinary.url.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try SondeBinary.run(
            ["-c", shellCommand], in: directory, environment: environment, executable: URL(fileURLWithPath: "/bin/bash")
        )
    }

    @Test func slurmArrayScriptAndIndexedJobMergeToTheSingleRun() throws {
        let root = try TestScratch.folder("sonde-cluster")
        defer { try? FileManager.default.removeItem(at: root) }
        try makeClips(in: root)
        let single = try SondeBinary.run(["process", "data", "-o", "all.csv"], in: root)
        #expect(single.status == 0, "stderr: \(single.stderr)")
        let expected = try Data(contentsOf: root.appendingPathComponent("all.csv"))

        let script = docs.appendingPathComponent("sonde-array.sbatch").path
        for task in 0..<3 {
            let result = try run(
                "bash '\(script)' data slurm-out", in: root,
                environment: ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_COUNT": "3"])
            #expect(result.status == 0, "task \(task): \(result.stderr)")
        }
        #expect(try SondeBinary.run(["merge", "slurm-out", "-o", "slurm.csv"], in: root).status == 0)
        #expect(try Data(contentsOf: root.appendingPathComponent("slurm.csv")) == expected)

        // The Job's command, with its volume paths pointed at the test's folder.
        let manifest = try String(contentsOf: docs.appendingPathComponent("sonde-indexed-job.yaml"), encoding: .utf8)
        let line = try #require(manifest.split(separator: "\n").first { $0.contains("- sonde process") })
        let command = line.trimmingCharacters(in: .whitespaces).dropFirst(2)
            .replacingOccurrences(of: "/shared/DATA", with: "data").replacingOccurrences(
                of: "/shared/features", with: "k8s-out")
        let completions = try #require(manifest.split(separator: "\n").first { $0.contains("completions:") })
        #expect(completions.hasSuffix(" 3") && command.contains("/3\""))
        for index in 0..<3 {
            let result = try run(command, in: root, environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(result.status == 0, "index \(index): \(result.stderr)")
        }
        #expect(try SondeBinary.run(["merge", "k8s-out", "-o", "k8s.csv"], in: root).status == 0)
        #expect(try Data(contentsOf: root.appendingPathComponent("k8s.csv")) == expected)
    }
}
