import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Datasets from the command line: folder walks, lists, one output per input, manifests,
/// resuming, keep-going, shards and merge.
@Suite struct DatasetTests {
    /// A dataset of `count` short 2-channel CSV clips in nested folders (rate from `--rate`).
    private func makeDataset(count: Int, rows: Int = 96) throws -> URL {
        try DatasetFixture.make(count: count, rows: rows)
    }

    private let measure = [
        "--rate", "1000", "--window", "32", "--features", "rms,kurtosis,dominant_frequency", "--bands", "0-100",
    ]

    private func files(under folder: URL) -> [String] {
        DatasetFixture.files(under: folder)
    }

    @Test func folderIsWalkedRecursivelyInByteOrderWithRelativeNames() throws {
        let root = try makeDataset(count: 6)
        defer { try? FileManager.default.removeItem(at: root) }
        // Notes, hidden folders and a link back to the root are not inputs.
        try "notes".write(to: root.appendingPathComponent("README.txt"), atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        try "x\n1\n".write(to: root.appendingPathComponent(".cache/stale.csv"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("machine_0/loop"), withDestinationURL: root)
        let result = try SondeBinary.run(["process", root.path, "--features", "rms"] + measure.prefix(4), in: root)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let names = result.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }
        var seen: [String] = []
        for name in names where seen.last != name { seen.append(name) }
        #expect(
            seen == [
                "machine_0/id_0/clip_0000.csv", "machine_0/id_1/clip_0003.csv", "machine_1/id_0/clip_0004.csv",
                "machine_1/id_1/clip_0001.csv", "machine_2/id_0/clip_0002.csv", "machine_2/id_1/clip_0005.csv",
            ])
        #expect(result.stdout.hasPrefix("file,time,channel,frame,start,rms\n"))
    }

    @Test func listsGiveTheSameRecordsAsArguments() throws {
        let root = try makeDataset(count: 5)
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = files(under: root).filter { $0.hasSuffix(".csv") }
        let direct = try SondeBinary.run(["process"] + paths + measure, in: root)
        #expect(direct.status == 0, "stderr: \(direct.stderr)")
        let lines = try SondeBinary.run(
            ["process", "--files-from", "-"] + measure, stdin: Data((paths.joined(separator: "\n") + "\n").utf8),
            in: root)
        let nulls = try SondeBinary.run(
            ["process", "--files-from", "-", "--null"] + measure, stdin: Data(paths.joined(separator: "\0").utf8),
            in: root)
        #expect(lines.stdout == direct.stdout)
        #expect(nulls.stdout == direct.stdout)
        #expect(direct.stdout.split(separator: "\n").count == 1 + 5 * 2 * 5)
    }

    @Test func outputDirWritesEachInputAndResumesWhereItStopped() throws {
        let root = try makeDataset(count: 8)
        defer { try? FileManager.default.removeItem(at: root) }
        let single = try SondeBinary.run(["process", "data", "-o", "all.csv"] + measure, in: try moveIntoData(root))
        #expect(single.status == 0, "stderr: \(single.stderr)")
        let first = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let outputs = files(under: root.appendingPathComponent("out")).filter { $0.hasSuffix(".csv.csv") }
        #expect(outputs.count == 8)
        // One output removed, as if the run had been killed before it: the rerun redoes it only.
        try FileManager.default.removeItem(at: root.appendingPathComponent("out/machine_1/id_1/clip_0001.csv.csv"))
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(rerun.stderr.contains("7 of 8 inputs already have an output"))
        #expect(rerun.stderr.contains("redone: 1 missing output"))
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.jsonl"), encoding: .utf8)
        // The rerun's inputs are the first run's: one run line, then the one result it redid.
        #expect(manifest.components(separatedBy: "\"same_inputs\":true").count - 1 == 1)
        #expect(!manifest.contains("\"status\":\"skipped\""))
        #expect(manifest.components(separatedBy: "\"status\":\"ok\"").count - 1 == 8 + 1)
        #expect(manifest.contains("\"sonde\":"))
        #expect(manifest.contains("\"build\":"))
        let merged = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(merged.status == 0, "stderr: \(merged.stderr)")
        let mergedBytes = try Data(contentsOf: root.appendingPathComponent("merged.csv"))
        #expect(mergedBytes == (try Data(contentsOf: root.appendingPathComponent("all.csv"))))
        #expect(files(under: root).allSatisfy { !$0.contains("sonde-tmp") })
        // Other settings into the same folder would mix outputs: refused.
        let other = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--window", "64", "--rate", "1000"], in: root)
        #expect(other.status != 0)
        #expect(other.stderr.contains("other settings"))
    }

    @Test(arguments: ["csv", "json", "ndjson"])
    func threeShardsMergeToExactlyTheSingleRun(format: String) throws {
        let root = try moveIntoData(try makeDataset(count: 12))
        defer { try? FileManager.default.removeItem(at: root) }
        let single = try SondeBinary.run(["process", "data", "-o", "all.\(format)"] + measure, in: root)
        #expect(single.status == 0, "stderr: \(single.stderr)")
        var counts: [Int] = []
        for shard in 0..<3 {
            let result = try SondeBinary.run(
                ["process", "data", "--output-dir", "out", "--format", format, "--shard", "\(shard)/3"] + measure,
                in: root)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let manifest = try String(
                contentsOf: root.appendingPathComponent("out/manifest-\(shard)-of-3.jsonl"), encoding: .utf8)
            counts.append(manifest.components(separatedBy: "\"type\":\"result\"").count - 1)
            // Before the last shard has run, merge refuses and says which is missing.
            if shard == 1 {
                let early = try SondeBinary.run(["merge", "out"], in: root)
                #expect(early.status == 2)
                #expect(early.stderr.contains("shard 2/3 has not run"))
                #expect(early.stdout.isEmpty)
            }
        }
        #expect(counts.reduce(0, +) == 12)
        #expect(counts.allSatisfy { $0 < 12 })
        let merged = try SondeBinary.run(["merge", "out", "-o", "merged.\(format)"], in: root)
        #expect(merged.status == 0, "stderr: \(merged.stderr)")
        #expect(
            try Data(contentsOf: root.appendingPathComponent("merged.\(format)"))
                == (try Data(contentsOf: root.appendingPathComponent("all.\(format)"))))
    }

    @Test func outputDirWritesParquetPerInput() throws {
        let root = try moveIntoData(try makeDataset(count: 3))
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--format", "parquet", "--row-group-rows", "8"] + measure,
            in: root)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let outputs = files(under: root.appendingPathComponent("out")).filter { $0.hasSuffix(".csv.parquet") }
        #expect(outputs.count == 3)
        for output in outputs {
            let bytes = try Data(contentsOf: root.appendingPathComponent("out/\(output)"))
            #expect(bytes.prefix(4) == Data("PAR1".utf8) && bytes.suffix(4) == Data("PAR1".utf8))
        }
        let merge = try SondeBinary.run(["merge", "out"], in: root)
        #expect(merge.status != 0)
        #expect(merge.stderr.contains("not supported"))
    }

    @Test func keepGoingRecordsACorruptInputAndFinishesTheRest() throws {
        let root = try moveIntoData(try makeDataset(count: 6))
        defer { try? FileManager.default.removeItem(at: root) }
        let clean = try SondeBinary.run(["process", "data", "--output-dir", "clean"] + measure, in: root)
        #expect(clean.status == 0, "stderr: \(clean.stderr)")
        try "x,y\n1,2\n3,oops\n".write(
            to: root.appendingPathComponent("data/machine_1/bad.csv"), atomically: false, encoding: .utf8)
        let stopped = try SondeBinary.run(["process", "data", "--output-dir", "first"] + measure, in: root)
        #expect(stopped.status == 1)
        let result = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--keep-going"] + measure, in: root)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("machine_1/bad.csv"))
        #expect(result.stderr.contains("line 3"))
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.jsonl"), encoding: .utf8)
        #expect(manifest.contains("\"status\":\"failed\""))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out/machine_1/bad.csv.csv").path))
        for output in files(under: root.appendingPathComponent("clean")).filter({ $0.hasSuffix(".csv.csv") }) {
            #expect(
                try Data(contentsOf: root.appendingPathComponent("out/\(output)"))
                    == (try Data(contentsOf: root.appendingPathComponent("clean/\(output)"))), "\(output)")
        }
    }

    /// Every input failing is still a --keep-going run (issue 43): each failure listed and
    /// recorded in the manifest, exit 2, no output; without --keep-going the first error.
    @Test func keepGoingWhenEveryInputFails() throws {
        let root = try moveIntoData(try makeDataset(count: 3))
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = files(under: root).filter { $0.hasSuffix(".csv") }
        #expect(inputs.count == 3)
        for input in inputs {
            try "x,y\n1,2\n3,oops\n".write(to: root.appendingPathComponent(input), atomically: false, encoding: .utf8)
        }
        let result = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--keep-going"] + measure, in: root)
        #expect(result.status == 2, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("3 of 3 inputs failed"), "stderr: \(result.stderr)")
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.jsonl"), encoding: .utf8)
        #expect(manifest.components(separatedBy: "\"status\":\"failed\"").count - 1 == 3, "\(manifest)")
        #expect(files(under: root.appendingPathComponent("out")).allSatisfy { !$0.hasSuffix(".csv.csv") })
        let stopped = try SondeBinary.run(["process", "data", "--output-dir", "first"] + measure, in: root)
        #expect(stopped.status == 1 && stopped.stderr.contains("line 3"), "stderr: \(stopped.stderr)")
    }

    @Test func killedRunResumesToTheSameOutputsAndLeavesNoTemporaryFiles() throws {
        let root = try moveIntoData(try makeDataset(count: 400, rows: 400))
        defer { try? FileManager.default.removeItem(at: root) }
        let reference = try SondeBinary.run(["process", "data", "-o", "all.csv"] + measure, in: root)
        #expect(reference.status == 0, "stderr: \(reference.stderr)")
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = ["process", "data", "--output-dir", "out", "--jobs", "1"] + measure
        process.currentDirectoryURL = root
        process.standardError = FileHandle.nullDevice
        try process.run()
        let manifest = root.appendingPathComponent("out/manifest.jsonl")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
            if text.components(separatedBy: "\"status\":\"ok\"").count > 20 { break }
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let done =
            try String(contentsOf: manifest, encoding: .utf8).components(separatedBy: "\"status\":\"ok\"").count - 1
        #expect(done > 0 && done < 400, "the kill should land halfway (\(done) done)")
        #expect(files(under: root).allSatisfy { !$0.contains("sonde-tmp") })
        let rerun = try SondeBinary.run(["process", "data", "--output-dir", "out"] + measure, in: root)
        #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
        #expect(
            rerun.stderr.contains("\(done) of 400 inputs already have an output")
                || rerun.stderr.contains("of 400 inputs already"))
        let merged = try SondeBinary.run(["merge", "out", "-o", "merged.csv"], in: root)
        #expect(merged.status == 0, "stderr: \(merged.stderr)")
        #expect(
            try Data(contentsOf: root.appendingPathComponent("merged.csv"))
                == (try Data(contentsOf: root.appendingPathComponent("all.csv"))))
    }

    @Test func thousandsOfInputsRunUnderALowOpenFileLimit() throws {
        let root = try moveIntoData(try makeDataset(count: 1500, rows: 40))
        defer { try? FileManager.default.removeItem(at: root) }
        let command =
            "ulimit -n 64 && exec '\(SondeBinary.url.path)' process data --jobs 2 --rate 1000 --window 16 --features rms -o all.csv"
        let result = try SondeBinary.run(["-c", command], in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = try String(contentsOf: root.appendingPathComponent("all.csv"), encoding: .utf8).split(
            separator: "\n")
        #expect(lines.count == 1 + 1500 * 2 * 4)
    }

    @Test func outputNamingAnInputIsRefused() throws {
        let root = try makeDataset(count: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        let input = "machine_0/id_0/clip_0000.csv"
        let before = try Data(contentsOf: root.appendingPathComponent(input))
        let result = try SondeBinary.run(
            ["process", input, "--rate", "1000", "--window", "16", "-o", "./" + input], in: root)
        #expect(result.status != 0)
        #expect(result.stderr.contains("is the input"))
        #expect(try Data(contentsOf: root.appendingPathComponent(input)) == before)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func signalDuringFileOutputKeepsTheOldFile(signal: Int32) throws {
        let root = try TestScratch.folder("sonde-signal")
        defer { try? FileManager.default.removeItem(at: root) }
        try "PRECIOUS\n".write(to: root.appendingPathComponent("out.csv"), atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = [
            "process", "-", "--rate", "1000", "--sample-type", "f64le", "--window", "64", "--jobs", "1", "-o",
            "out.csv",
        ]
        process.currentDirectoryURL = root
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        // Samples keep arriving; the signal comes while the output is being written.
        let block = Data(repeating: 0x3f, count: 8 * 4096)
        for _ in 0..<64 { input.fileHandleForWriting.write(block) }
        usleep(200_000)
        kill(process.processIdentifier, signal)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("left as it was"))
        #expect(try String(contentsOf: root.appendingPathComponent("out.csv"), encoding: .utf8) == "PRECIOUS\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["out.csv"])
    }

    /// Moves a dataset's clips into `root/data`, so outputs can sit beside it.
    private func moveIntoData(_ root: URL) throws -> URL {
        let data = root.appendingPathComponent("data")
        let staging = root.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        try FileManager.default.moveItem(at: root, to: staging)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: staging, to: data)
        return root
    }
}
