import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 28: a dataset folder's files are checked, not believed. Damaged outputs, changed
/// inputs, torn manifests and concurrent runs never let `sonde merge` exit 0 with bytes
/// that differ from a single run.
@Suite struct DatasetTrustTests {
    private let measure = [
        "--rate", "1000", "--window", "32", "--features", "rms,kurtosis,dominant_frequency", "--bands", "0-100",
    ]

    /// A dataset in `root/data`, its single run in `root/all.csv` and a dataset run in `root/out`.
    private func measuredDataset(count: Int = 9) throws -> URL {
        let root = try DatasetFixture.make(count: count, inData: true)
        let single = try SondeBinary.run(["process", "data", "-o", "all.csv"] + measure, in: root)
        #expect(single.status == 0, "stderr: \(single.stderr)")
        let run = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return root
    }

    private func mergeEqualsSingleRun(_ root: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let merged = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(merged.status == 0, "stderr: \(merged.stderr)", sourceLocation: sourceLocation)
        #expect(
            try Data(contentsOf: root.appendingPathComponent("merged.csv"))
                == (try Data(contentsOf: root.appendingPathComponent("single.csv"))), sourceLocation: sourceLocation)
    }

    private func singleRun(_ root: URL) throws {
        let single = try SondeBinary.run(["process", "data", "-o", "single.csv"] + measure, in: root)
        #expect(single.status == 0, "stderr: \(single.stderr)")
    }

    private func manifestLines(_ root: URL, _ name: String = "out/manifest.jsonl") throws -> [Substring] {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func damagedTruncatedAndFlippedOutputsAreRefusedByMergeAndRedone() throws {
        let root = try measuredDataset()
        defer { try? FileManager.default.removeItem(at: root) }
        let random = "out/machine_0/id_0/clip_0000.csv.csv"
        let truncated = "out/machine_1/id_1/clip_0001.csv.csv"
        let flipped = "out/machine_2/id_0/clip_0002.csv.csv"
        var generator = SplitMix64(seed: 28)
        try Data((0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(
            to: root.appendingPathComponent(random))
        try FileHandle(forWritingTo: root.appendingPathComponent(truncated)).truncate(atOffset: 200)
        // Same size, one digit changed: only the checksum tells.
        var bytes = try Data(contentsOf: root.appendingPathComponent(flipped))
        let digit = try #require(bytes.lastIndex(of: UInt8(ascii: "3")))
        bytes[digit] = UInt8(ascii: "4")
        try bytes.write(to: root.appendingPathComponent(flipped))
        let refused = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(refused.status == 2)
        for name in [random, truncated, flipped] { #expect(refused.stderr.contains(name), "\(refused.stderr)") }
        #expect(refused.stderr.contains("damaged"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("merged.csv").path))
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stderr.contains("6 of 9 inputs already have an output"), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("redone: 3 damaged outputs"), "\(rerun.stderr)")
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("all.csv"), to: root.appendingPathComponent("single.csv"))
        try mergeEqualsSingleRun(root)
    }

    @Test func missingOutputIsRefusedByMerge() throws {
        let root = try measuredDataset(count: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/machine_1/id_1/clip_0001.csv.csv"))
        let refused = try SondeBinary.run(["merge", "out"], in: root)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("clip_0001.csv.csv is missing"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }

    @Test func shorterAndSameSizeChangedInputsAreRedone() throws {
        let root = try measuredDataset()
        defer { try? FileManager.default.removeItem(at: root) }
        // A shorter recording in place of one clip, and one digit changed in another.
        var generator = SplitMix64(seed: 5)
        try DatasetFixture.clip(index: 3, rows: 40, generator: &generator).write(
            to: root.appendingPathComponent("data/machine_0/id_1/clip_0003.csv"), atomically: false, encoding: .utf8)
        let sameSize = root.appendingPathComponent("data/machine_1/id_0/clip_0004.csv")
        var bytes = try Data(contentsOf: sameSize)
        let digit = try #require(bytes.firstIndex(of: UInt8(ascii: "1")))
        bytes[digit] = UInt8(ascii: "2")
        try bytes.write(to: sameSize)
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stderr.contains("redone: 2 changed inputs"), "\(rerun.stderr)")
        try singleRun(root)
        try mergeEqualsSingleRun(root)
    }

    @Test func verifyInputsNoticesAChangeWhoseTimeWasPutBack() throws {
        let root = try measuredDataset(count: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        // The input is recorded with its checksum first.
        let verified = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--verify-inputs"] + measure, in: root)
        #expect(verified.status == 0, "stderr: \(verified.stderr)")
        #expect(verified.stderr.contains("redone: 4 unverified"), "no checksum recorded yet: \(verified.stderr)")
        let clip = root.appendingPathComponent("data/machine_1/id_1/clip_0001.csv")
        var status = stat()
        #expect(stat(clip.path, &status) == 0)
        var bytes = try Data(contentsOf: clip)
        let digit = try #require(bytes.firstIndex(of: UInt8(ascii: "1")))
        bytes[digit] = UInt8(ascii: "2")
        try bytes.write(to: clip)
        // A file system whose times lie: the same size and modification time, to the nanosecond.
        let times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, clip.path, times, 0) == 0)
        let trusting = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(trusting.stderr.contains("4 of 4 inputs already have an output"), "\(trusting.stderr)")
        let checking = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--verify-inputs"] + measure, in: root)
        #expect(checking.status == 0, "stderr: \(checking.stderr)")
        #expect(checking.stderr.contains("redone: 1 changed input"), "\(checking.stderr)")
        try singleRun(root)
        try mergeEqualsSingleRun(root)
    }

    @Test func manifestCutInItsRunLineRefusesTheRunAndTheMerge() throws {
        let root = try measuredDataset(count: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out/machine_0/id_0/clip_0000.csv.csv")
        let before = try Data(contentsOf: output)
        try FileHandle(forWritingTo: root.appendingPathComponent("out/manifest.jsonl")).truncate(atOffset: 50)
        let other = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--rate", "1000", "--window", "64"], in: root)
        #expect(other.status == 2)
        #expect(other.stderr.contains("out/manifest.jsonl: damaged manifest"), "\(other.stderr)")
        #expect(other.stderr.contains("delete it to start the folder over"))
        #expect(try Data(contentsOf: output) == before)
        #expect(try manifestLines(root).count == 1, "nothing appended to a manifest that cannot be read")
        let merge = try SondeBinary.run(["merge", "out"], in: root)
        #expect(merge.status == 2)
        #expect(merge.stdout.isEmpty)
        // Starting over as the message says works.
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/manifest.jsonl"))
        let again = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("all.csv"), to: root.appendingPathComponent("single.csv"))
        try mergeEqualsSingleRun(root)
    }

    @Test func manifestCutMidFileIsReadWithAWarningAndStillChecksSettings() throws {
        let root = try measuredDataset()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("out/manifest.jsonl")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int)
        try FileHandle(forWritingTo: path).truncate(atOffset: UInt64(size / 2 + 7))
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stderr.contains("cut short"), "\(rerun.stderr)")
        // The torn line stays a line of its own: the rerun's run line starts on the next.
        let lines = try manifestLines(root)
        let runs = lines.indices.filter { lines[$0].hasPrefix("{\"all_inputs\"") }
        #expect(runs.count == 2)
        #expect(!lines[runs[1] - 1].hasSuffix("}"), "the line before the rerun's is the torn one")
        let other = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--rate", "1000", "--window", "64"], in: root)
        #expect(other.status == 1)
        #expect(other.stderr.contains("other settings"), "\(other.stderr)")
        let merge = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(merge.stderr.contains("not readable"), "the merge warns too: \(merge.stderr)")
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("all.csv"), to: root.appendingPathComponent("single.csv"))
        try mergeEqualsSingleRun(root)
    }

    /// A manifest written before issue 28 (no times, sizes or checksums of outputs) is
    /// read, but its outputs are not trusted: merge asks for a rerun, which redoes them.
    @Test func manifestWithoutChecksumsIsUnverifiedAndRedone() throws {
        let root = try measuredDataset(count: 4)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("out/manifest.jsonl")
        let old = try String(contentsOf: path, encoding: .utf8).replacing(
            /"(bytes|mtime)":\d+,|"crc32c":"[0-9a-f]{8}",/, with: "")
        #expect(!old.contains("crc32c") && !old.contains("mtime"))
        try old.write(to: path, atomically: false, encoding: .utf8)
        let merge = try SondeBinary.run(["merge", "out"], in: root)
        #expect(merge.status == 2)
        #expect(merge.stderr.contains("made by an older sonde"), "\(merge.stderr)")
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stderr.contains("redone: 4 unverified (no checksum recorded)"), "\(rerun.stderr)")
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("all.csv"), to: root.appendingPathComponent("single.csv"))
        try mergeEqualsSingleRun(root)
    }

    @Test func rerunThatSkipsEverythingAppendsOneLine() throws {
        let root = try measuredDataset()
        defer { try? FileManager.default.removeItem(at: root) }
        let before = try manifestLines(root).count
        for _ in 0..<2 {
            let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
            #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
            #expect(rerun.stderr.contains("9 of 9 inputs already have an output"))
        }
        #expect(try manifestLines(root).count == before + 2)
    }

    /// Two runs with other settings started together into one empty folder: at most one
    /// may succeed (the lock refuses the second while the first runs, the settings check
    /// after), so merge never joins two schemas. Repeated to meet the race.
    @Test func concurrentRunsWithOtherSettingsNeverBothSucceed() throws {
        let root = try DatasetFixture.make(count: 60, inData: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var refusedByLock = 0
        for attempt in 0..<8 {
            let folder = "out\(attempt)"
            let results = [["rms"], ["kurtosis,rms"]].map { features in
                let process = Process()
                process.executableURL = SondeBinary.url
                process.arguments =
                    [
                        "process", "data", "--output-dir", folder, "--rate", "1000", "--window", "32", "--features",
                    ] + features
                process.currentDirectoryURL = root
                let errors = Pipe()
                process.standardError = errors
                return (process, errors)
            }
            for (process, _) in results { try process.run() }
            var succeeded = 0
            for (process, errors) in results {
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                if process.terminationStatus == 0 {
                    succeeded += 1
                } else {
                    #expect(message.contains("in use by another sonde process") || message.contains("other settings"))
                    if message.contains("in use") { refusedByLock += 1 }
                }
            }
            #expect(succeeded == 1, "attempt \(attempt)")
            let merged = try SondeBinary.run(["merge", folder], in: root)
            #expect(merged.status == 0, "stderr: \(merged.stderr)")
            let headers = merged.stdout.split(separator: "\n").filter { $0.hasPrefix("file,") }
            #expect(headers.count == 1)
            let fields = Set(merged.stdout.split(separator: "\n").map { $0.split(separator: ",").count })
            #expect(fields.count == 1, "one schema: \(fields)")
        }
        #expect(refusedByLock > 0, "the runs never overlapped: the lock was not exercised")
    }

    @Test func nonUTF8FileNameIsNamedAndSkippedUnderKeepGoing() throws {
        let root = try DatasetFixture.make(count: 3, inData: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let copy = try SondeBinary.run(
            ["-c", "cp data/machine_0/id_0/clip_0000.csv \"data/machine_0/$(printf 'bad\\377\\376.csv')\""], in: root,
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(copy.status == 0, "\(copy.stderr)")
        let stopped = try SondeBinary.run(["process", "data", "-o", "all.csv"] + measure, in: root)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("machine_0/bad\\xFF\\xFE.csv: the file name is not UTF-8"), "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("no such file"))
        let kept = try SondeBinary.run(["process", "data", "--output-dir", "out", "--keep-going"] + measure, in: root)
        #expect(kept.status == 2)
        #expect(kept.stderr.contains("bad\\xFF\\xFE.csv"))
        #expect(kept.stderr.contains("1 of 4 inputs failed"), "\(kept.stderr)")
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.jsonl"), encoding: .utf8)
        #expect(manifest.contains("\"input\":\"machine_0/bad\\\\xFF\\\\xFE.csv\""), "\(manifest)")
        #expect(
            DatasetFixture.files(under: root.appendingPathComponent("out")).filter { $0.hasSuffix(".csv.csv") }.count
                == 3)
        // A --files-from list naming it gets the same message, not 'no such file'.
        var list = Data("data/machine_0/bad".utf8)
        list += Data([0xFF, 0xFE]) + Data(".csv".utf8)
        let listed = try SondeBinary.run(["process", "--files-from", "-", "--null"] + measure, stdin: list, in: root)
        #expect(listed.status == 1)
        #expect(
            listed.stderr.contains("data/machine_0/bad\\xFF\\xFE.csv: the file name is not UTF-8"), "\(listed.stderr)")
    }

    @Test func outputDirThatIsTheDataFolderSaysWhatToDo() throws {
        let root = try DatasetFixture.make(count: 2, inData: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try SondeBinary.run(["process", "data", "--output-dir", "data"] + measure, in: root)
        #expect(result.status != 0)
        #expect(result.stderr.contains("this folder is the --output-dir too"), "\(result.stderr)")
        #expect(result.stderr.contains("data-features"))
    }

    @Test func twoFoldersHoldingOneNameAreNamedWithTheirFolders() throws {
        let root = try DatasetFixture.make(count: 2, inData: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("data/machine_0/id_0/clip_0000.csv"),
                to: root.appendingPathComponent("\(folder)/x.csv"))
        }
        let result = try SondeBinary.run(["process", "a", "b", "--output-dir", "out"] + measure, in: root)
        #expect(result.status != 0)
        #expect(result.stderr.contains("inputs 'a/x.csv' and 'b/x.csv' are both named 'x.csv'"), "\(result.stderr)")
    }
}
