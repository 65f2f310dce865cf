import Foundation
import Testing
import _SondeTestSupport

/// One case of `Tests/Fixtures/bad_cases.json`: input that must be refused with the
/// location of the problem.
struct BadCase: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var inputs: [String]
    var args: [String]
    var kind: String
    var line: Int?
    var column: Int?
    /// The filter stage an `invalid_filter` case must name.
    var stage: String?

    var testDescription: String { name }

    static func all() throws -> [BadCase] {
        try JSONDecoder().decode([BadCase].self, from: Fixtures.data("bad_cases.json"))
    }
}

@Suite struct BadInputTests {
    private func temporaryDirectory() throws -> URL {
        try TestScratch.folder("sonde-cli")
    }

    /// A refused run prints one line on stderr, nothing on stdout, exits non-zero, and
    /// leaves no output file behind (and an existing one untouched).
    private func expectRefused(
        _ arguments: [String], mentions fragments: [String], in directory: URL = Fixtures.directory
    ) throws {
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("out.csv")
        try "keep me\n".write(to: output, atomically: false, encoding: .utf8)
        let result = try SondeBinary.run(arguments + ["-o", output.path], in: directory)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line on stderr, got: \(result.stderr)")
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "stderr should mention '\(fragment)': \(result.stderr)")
        }
        #expect(try String(contentsOf: output, encoding: .utf8) == "keep me\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.csv"])
    }

    @Test(arguments: try BadCase.all())
    func fixtureIsRefusedWithItsLocation(_ bad: BadCase) throws {
        // Problems with the data name the file; a filter problem names its stage.
        let namesFile = ["bad_cell", "wrong_cell_count", "missing_rate", "invalid_band"].contains(bad.kind)
        var fragments = namesFile ? bad.inputs.map { ($0 as NSString).lastPathComponent } : []
        if let stage = bad.stage { fragments.append(stage) }
        if let line = bad.line { fragments.append("line \(line)") }
        if let column = bad.column { fragments.append("column \(column)") }
        try expectRefused(["process"] + bad.inputs + bad.args, mentions: fragments)
    }

    @Test func csvCellThatIsNotANumberNamesLineAndColumn() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "time,x,y\n0,1,2\n0.001,3,4\n\n0.002,5,oops\n".write(
            to: dir.appendingPathComponent("bad.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "bad.csv"], mentions: ["bad.csv", "line 5", "column 3", "oops"], in: dir)
    }

    @Test func csvRowWithWrongCellCountNamesTheLine() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "x,y\n1,2\n3\n".write(to: dir.appendingPathComponent("short.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "short.csv", "--rate", "100"], mentions: ["short.csv", "line 3"], in: dir)
    }

    @Test func headerlessCSVWithoutRateAsksForRate() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "1,2\n3,4\n".write(to: dir.appendingPathComponent("plain.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "plain.csv"], mentions: ["--rate"], in: dir)
    }

    @Test func rawInputWithoutRateAsksForRate() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(count: 4096).write(to: dir.appendingPathComponent("x.f32"))
        try expectRefused(["process", "x.f32"], mentions: ["--rate"], in: dir)
    }

    @Test func unknownExtensionAsksForSampleType() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(count: 4096).write(to: dir.appendingPathComponent("x.dat"))
        try expectRefused(["process", "x.dat", "--rate", "1000"], mentions: ["x.dat", "--sample-type"], in: dir)
    }

    /// A MATLAB file without a rate asks for one and lists its scalars, never --sample-type;
    /// following the old advice (--sample-type) is refused, naming the container: no table of
    /// garbage, no output file (issue 43).
    @Test func containerIsNeverReadAsRawSamples() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: Fixtures.directory.appendingPathComponent("containers/bearing.mat"),
            to: dir.appendingPathComponent("bearing.mat"))
        try expectRefused(["process", "bearing.mat"], mentions: ["bearing.mat", "--rate", "X105RPM"], in: dir)
        let first = try SondeBinary.run(["process", "bearing.mat"], in: dir)
        #expect(!first.stderr.contains("--sample-type"), "\(first.stderr)")
        try expectRefused(
            ["process", "bearing.mat", "--sample-type", "i16le", "--rate", "12000"],
            mentions: ["bearing.mat", "MATLAB 5.0 MAT-file", "not raw samples"], in: dir)
    }

    @Test func missingFileIsNamed() throws {
        try expectRefused(["process", "no-such-file.wav"], mentions: ["no-such-file.wav"])
    }

    @Test func directoryWithoutSampleFilesIsRefused() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try expectRefused(["process", "empty"], mentions: ["empty", "no sample files"], in: dir)
    }

    static let invalidOptions: [(arguments: [String], fragment: String)] = [
        (["--window", "1000"], "power of two"),
        (["--window", "8"], "power of two"),
        (["--window", "1024", "--hop", "2048"], "--hop"),
        (["--hop", "0"], "--hop"),
        (["--filter", "lowpass:600"], "lowpass:600"),  // 600 Hz >= fs/2 at 1 kHz
        (["--filter", "highpass:0"], "highpass:0"),
        (["--filter", "lowpass:100:0"], "lowpass:100:0"),
        (["--filter", "lowpass:100:17"], "lowpass:100:17"),
        (["--filter", "bandpass:200-100"], "bandpass:200-100"),
        (["--filter", "bandstop:100-100"], "bandstop:100-100"),
        (["--filter", "notch:50:0"], "notch:50:0"),
        (["--filter", "wobble:50"], "wobble"),
        (["--bands", "0-600"], "0-600"),
        (["--bands", "200-100"], "200-100"),
        (["--bands", "abc"], "abc"),
        (["--features", "rms,loudness"], "loudness"),
    ]

    @Test(arguments: invalidOptions)
    func invalidOptionIsRefusedBeforeAnyOutput(arguments: [String], fragment: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = (0..<4096).map { "\(sin(Double($0) * 0.1))" }.joined(separator: "\n")
        try samples.write(to: dir.appendingPathComponent("tone.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "tone.csv", "--rate", "1000"] + arguments, mentions: [fragment], in: dir)
    }

    @Test func dashAsOutputMeansStandardOutputNotAFileNamedDash() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "1\n2\n3\n".write(to: dir.appendingPathComponent("short.csv"), atomically: false, encoding: .utf8)
        let result = try SondeBinary.run(
            ["process", "short.csv", "--rate", "100", "--features", "rms", "-o", "-"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout == "time,channel,frame,start,rms\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
    }

    @Test func inputShorterThanOneWindowGivesZeroRecordsAndANote() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "1\n2\n3\n".write(to: dir.appendingPathComponent("short.csv"), atomically: false, encoding: .utf8)
        let result = try SondeBinary.run(["process", "short.csv", "--rate", "100", "--features", "rms"], in: dir)
        #expect(result.status == 0)
        #expect(result.stdout == "time,channel,frame,start,rms\n")
        #expect(result.stderr.contains("fewer than one window"))
    }
}
