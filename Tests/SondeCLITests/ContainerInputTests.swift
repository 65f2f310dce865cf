import Foundation
import Testing
import _SondeTestSupport

/// MATLAB, HDF5 and TDMS recordings measured end to end (issue 45): the records equal those
/// of the same arrays (as scipy.io.loadmat, h5py and npTDMS read them, written by the
/// fixture generators as raw f64) measured as raw samples; `sonde info` lists what
/// --variables takes; a missing array or rate is one line naming what exists.
@Suite struct ContainerInputTests {
    static let measure = ["--window", "16", "--hop", "4", "--features", "rms,peak,mean,kurtosis"]

    /// Interleaves per-channel f64 files into one raw file in `folder`; returns its path.
    static func interleave(_ files: [URL], into folder: URL) throws -> String {
        let channels = try files.map { url -> [UInt64] in
            let data = try Data(contentsOf: url)
            return (0..<(data.count / 8)).map { index in
                data[(index * 8)..<(index * 8 + 8)].enumerated().reduce(UInt64(0)) {
                    $0 | UInt64($1.element) << (8 * UInt64($1.offset))
                }
            }
        }
        var bytes: [UInt8] = []
        for frame in 0..<(channels.first?.count ?? 0) {
            for channel in channels { withUnsafeBytes(of: channel[frame].littleEndian) { bytes += $0 } }
        }
        let path = folder.appendingPathComponent("same.f64").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The value columns of CSV records, channel names aside.
    static func values(_ csv: String) -> [[String]] {
        RecordTable(csv: csv).rows.map { Array($0.dropFirst(2)) }
    }

    static func expectSameRecords(
        _ container: [String], raw files: [URL], channels: Int, rate: String, names: [String]
    ) throws {
        let folder = try TestScratch.folder("sonde-containers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let read = try SondeBinary.run(["process"] + container + measure)
        #expect(read.status == 0, "stderr: \(read.stderr)")
        let raw = try interleave(files, into: folder)
        let same = try SondeBinary.run(
            ["process", raw, "--rate", rate, "--channels", "\(channels)", "--sample-type", "f64le"] + measure)
        #expect(same.status == 0, "stderr: \(same.stderr)")
        #expect(!values(read.stdout).isEmpty)
        #expect(values(read.stdout) == values(same.stdout))
        let table = RecordTable(csv: read.stdout)
        let channelColumn = try #require(table.columns.firstIndex(of: "channel"))
        #expect(Array(Set(table.rows.map { $0[channelColumn] })).sorted() == names.sorted())
    }

    static func fixture(_ path: String) -> URL { Fixtures.directory.appendingPathComponent(path) }

    @Test func matStructFieldWithItsRateVariable() throws {
        let rate = try Data(contentsOf: Self.fixture("mat/expected/structs_v5/bearing.sr.f64"))
        let sr = Double(
            bitPattern: rate.prefix(8).enumerated().reduce(UInt64(0)) {
                $0 | UInt64($1.element) << (8 * UInt64($1.offset))
            })
        try Self.expectSameRecords(
            ["mat/structs_v5.mat", "--variables", "bearing.gs", "--rate-variable", "bearing.sr"],
            raw: [Self.fixture("mat/expected/structs_v5/bearing.gs.f64")], channels: 1, rate: "\(sr)",
            names: ["bearing.gs"])
    }

    @Test func tdmsInterleavedChannels() throws {
        try Self.expectSameRecords(
            ["tdms/interleaved.tdms", "--variables", "mix/int16,mix/uint8"],
            raw: [Self.fixture("tdms/expected/interleaved/0.f64"), Self.fixture("tdms/expected/interleaved/2.f64")],
            channels: 2, rate: "48000", names: ["mix/int16", "mix/uint8"])
    }

    /// Two HDF5 datasets at the group's `sample_rate` attribute, and a samples x channels
    /// matrix read as three channels.
    @Test func hdf5DatasetsAndAMatrix() throws {
        try Self.expectSameRecords(
            [
                "hdf5/signals.h5", "--variables", "/vibration/int16,/vibration/int32_be", "--rate-attribute",
                "sample_rate",
            ],
            raw: [
                Self.fixture("hdf5/expected/vibration__int16.f64"),
                Self.fixture("hdf5/expected/vibration__int32_be.f64"),
            ],
            channels: 2, rate: "25600", names: ["/vibration/int16", "/vibration/int32_be"])
        let matrix = try SondeBinary.run(
            ["process", "hdf5/signals.h5", "--variables", "/vibration/matrix", "--rate", "25600"] + Self.measure)
        #expect(matrix.status == 0, "\(matrix.stderr)")
        let table = RecordTable(csv: matrix.stdout)
        let channel = try #require(table.columns.firstIndex(of: "channel"))
        #expect(Set(table.rows.map { $0[channel] }).count == 3)
        let transposed = try SondeBinary.run(
            ["process", "hdf5/signals.h5", "--variables", "/vibration/matrix_t", "--rate", "25600"] + Self.measure)
        #expect(Self.values(transposed.stdout) == Self.values(matrix.stdout), "a 3x100 matrix is the same 3 channels")
        let nanRate = try SondeBinary.run(
            ["process", "hdf5/signals.h5", "--variables", "/nan_rate/x", "--rate-attribute", "sample_rate"])
        #expect(nanRate.status != 0 && nanRate.stderr.contains("nan"), "\(nanRate.stderr)")
    }

    @Test func infoListsWhatVariablesTakes() throws {
        for (file, name) in [
            ("mat/structs_v5.mat", "bearing.gs"), ("tdms/interleaved.tdms", "mix/int16"),
            ("hdf5/signals.h5", "/meta/cube"), ("containers/bearing.mat", "X105_DE_time"),
        ] {
            let info = try SondeBinary.run(["info", file])
            #expect(info.status == 0, "\(file): \(info.stderr)")
            #expect(info.stdout.contains(name), "\(file): \(info.stdout)")
            let json = try SondeBinary.run(["info", file, "--format", "json"])
            #expect(json.status == 0 && json.stdout.hasPrefix("[{\"file\":"), "\(file): \(json.stdout)")
        }
    }

    @Test func missingVariableAndRateSayWhatExists() throws {
        let missing = try SondeBinary.run(
            ["process", "containers/bearing.mat", "--variables", "X999_DE_time", "--rate", "12000"])
        #expect(missing.status != 0 && missing.stderr.contains("X105_DE_time"), "\(missing.stderr)")
        let noRate = try SondeBinary.run(["process", "containers/bearing.mat"])
        #expect(noRate.status != 0 && noRate.stderr.contains("X105RPM"), "\(noRate.stderr)")
        let wrongKind = try SondeBinary.run(["process", "containers/bearing.mat", "--rate-attribute", "fs"])
        #expect(wrongKind.status != 0 && wrongKind.stderr.contains("--rate-variable"), "\(wrongKind.stderr)")
        let notContainer = try SondeBinary.run(
            [
                "process",
                "inputs/"
                    + (try FileManager.default.contentsOfDirectory(
                        atPath: Fixtures.directory.appendingPathComponent("inputs").path
                    ).sorted().first ?? ""),
                "--variables", "x",
            ])
        #expect(notContainer.status != 0 && notContainer.stderr.contains("apply to MATLAB"), "\(notContainer.stderr)")
    }

    /// A NaN or infinity in a container is refused where it is read, naming the channel and
    /// the sample, as in every other input (a fuzzed TDMS file had crashed the extractor).
    @Test func nonFiniteSamplesAreRefusedWhereRead() throws {
        let run = try SondeBinary.run(
            ["process", "hdf5/signals.h5", "--variables", "/vibration/float64_be", "--rate", "1000"] + Self.measure)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("channel /vibration/float64_be, sample "), "\(run.stderr)")
        #expect(run.stderr.contains("expected a finite number"), "\(run.stderr)")
    }

    /// A dataset of MAT files: --variables applies to each, and a rerun choosing other
    /// variables is refused, not mixed with the first run's outputs.
    @Test func datasetRerunWithOtherVariablesIsRefused() throws {
        let folder = try TestScratch.folder("sonde-container-dataset")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for name in ["a.mat", "b.mat"] {
            try FileManager.default.copyItem(
                at: Self.fixture("containers/bearing.mat"), to: data.appendingPathComponent(name))
        }
        let options = ["--rate", "12000", "--window", "256", "--features", "rms"]
        let first = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--variables", "X105_DE_time"] + options, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let output = try String(contentsOf: folder.appendingPathComponent("out/a.mat.csv"), encoding: .utf8)
        #expect(output.contains("X105_DE_time") && !output.contains("X105_FE_time"))
        let other = try SondeBinary.run(
            ["process", "data", "--output-dir", "out", "--variables", "X105_FE_time"] + options, in: folder)
        #expect(other.status != 0 && other.stderr.contains("other settings"), "\(other.stderr)")
    }

    /// The default choice: every vector of the most common length, named, with a note.
    @Test func defaultChoiceIsNoted() throws {
        let run = try SondeBinary.run(["process", "containers/bearing.mat", "--rate", "12000"] + Self.measure)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("X105_DE_time") && run.stderr.contains("choose with --variables"), "\(run.stderr)")
        let table = RecordTable(csv: run.stdout)
        let channel = try #require(table.columns.firstIndex(of: "channel"))
        #expect(Set(table.rows.map { $0[channel] }) == ["X105_DE_time", "X105_FE_time", "X105_BA_time"])
    }

    /// A container on standard input, piped or redirected, gives the records the same file
    /// gives by path, and messages call it `stdin`; a pipe's copy leaves nothing in $TMPDIR,
    /// after a run that succeeds or one that fails.
    @Test(arguments: [
        ["mat/structs_v73.mat", "--variables", "N15_M07.Y(7).Data", "--rate", "64000"],
        ["mat/structs_v5.mat", "--variables", "bearing.gs", "--rate-variable", "bearing.sr"],
        ["tdms/interleaved.tdms", "--variables", "mix/int16,mix/uint8"],
        ["hdf5/signals.h5", "--variables", "/vibration/int16,/vibration/int32_be", "--rate-attribute", "sample_rate"],
    ])
    func containerOnStandardInput(arguments: [String]) throws {
        let temporary = try TestScratch.folder("sonde-stdin-spool")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let environment = ["TMPDIR": temporary.path]
        let file = arguments[0]
        let options = Array(arguments.dropFirst()) + Self.measure
        let byPath = try SondeBinary.run(["process", file] + options)
        #expect(byPath.status == 0, "\(byPath.stderr)")
        let bytes = try Data(contentsOf: Self.fixture(file))
        let piped = try SondeBinary.run(["process", "-"] + options, stdin: bytes, environment: environment)
        #expect(piped.status == 0, "\(file): \(piped.stderr)")
        #expect(!byPath.stdout.isEmpty && piped.stdout == byPath.stdout, "\(file) piped")
        let quoted = options.map { "'\($0)'" }.joined(separator: " ")
        let redirected = try SondeBinary.run(
            ["-c", "exec \"$0\" process - \(quoted) < \(file)", SondeBinary.url.path],
            environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(redirected.status == 0, "\(file): \(redirected.stderr)")
        #expect(redirected.stdout == byPath.stdout, "\(file) redirected")
        let missing = try SondeBinary.run(
            ["process", "-", "--variables", "absent", "--rate", "1000"], stdin: bytes, environment: environment)
        #expect(missing.status != 0, "\(file)")
        #expect(missing.stderr.hasPrefix("error: stdin: "), "\(file): \(missing.stderr)")
        #expect(!missing.stderr.contains("/proc/") && !missing.stderr.contains(temporary.path), "\(missing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// `sonde info -` lists a piped container; the default choice's note names `stdin`; CSV
    /// on standard input is read as before, and container options on it say why they do not
    /// apply; a piped container with --sample-type is refused as a file's is, not measured.
    @Test func infoAndNotesOnStandardInput() throws {
        let tdms = try Data(contentsOf: Self.fixture("tdms/interleaved.tdms"))
        let info = try SondeBinary.run(["info", "-"], stdin: tdms)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("stdin") && info.stdout.contains("mix/int16"), "\(info.stdout)")
        let mat = try Data(contentsOf: Self.fixture("containers/bearing.mat"))
        let noted = try SondeBinary.run(["process", "-", "--rate", "12000"] + Self.measure, stdin: mat)
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(noted.stderr.contains("stdin: read X105_DE_time"), "\(noted.stderr)")
        let csv = Data(("a,b\n" + (0..<64).map { "\($0),\(-$0)\n" }.joined()).utf8)
        let text = try SondeBinary.run(
            ["process", "-", "--rate", "100", "--window", "16", "--hop", "16", "--features", "rms"], stdin: csv)
        #expect(text.status == 0 && text.stdout.contains("rms"), "\(text.stderr)")
        let raw = try SondeBinary.run(["process", "-", "--rate", "100", "--sample-type", "f64le"], stdin: mat)
        #expect(raw.status != 0 && raw.stdout.isEmpty, "\(raw.stdout)")
        #expect(
            raw.stderr.hasPrefix("error: stdin: is a MATLAB 5.0 MAT-file (v5/v7), not raw samples; "),
            "\(raw.stderr)")
        let options = try SondeBinary.run(["process", "-", "--rate", "100", "--variables", "a"], stdin: csv)
        #expect(options.status != 0, "\(options.stdout)")
        #expect(options.stderr.contains("standard input does not start as one does"), "\(options.stderr)")
    }
}
