import Foundation
import Testing
import _SondeTestSupport

/// Issue 23: inputs and options that used to kill sonde with a signal or a trap. Each
/// must end in one `error:` line naming where the problem came from, with status 1 or
/// 64 (argument-parser's usage error), and write nothing to stdout.
@Suite struct NeverCrashTests {
    private func temporaryDirectory() throws -> URL {
        try TestScratch.folder("sonde-never-crash")
    }

    /// Runs sonde and checks the refusal: a normal exit (a trap exits by SIGILL, 4, whose
    /// backtrace fills stderr), one message line mentioning every fragment, no records.
    private func expectRefused(
        _ arguments: [String], stdin: Data? = nil, in directory: URL, mentions fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try SondeBinary.run(arguments, stdin: stdin, in: directory)
        #expect(
            result.status == 1 || result.status == 64, "status \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        let message = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(message.lowercased().hasPrefix("error"), "\(result.stderr)", sourceLocation: sourceLocation)
        // argument-parser adds a usage line after a validation error; sonde's own errors are one line.
        if result.status == 1 {
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        }
        for fragment in fragments {
            #expect(
                message.contains(fragment), "'\(fragment)' missing from: \(message)", sourceLocation: sourceLocation)
        }
        #expect(!message.contains("Missing value"), "\(message)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result.stdout.prefix(200))", sourceLocation: sourceLocation)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".sonde-tmp")
        }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)", sourceLocation: sourceLocation)
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }

    private static func float64Bytes(_ values: [Double]) -> Data {
        values.reduce(into: Data()) { $0 += littleEndian($1.bitPattern) }
    }

    /// A WAV file of 64-bit float samples (WAVE_FORMAT_IEEE_FLOAT), one channel.
    private static func doubleWAV(_ values: [Double], rate: UInt32) -> Data {
        let samples = float64Bytes(values)
        var data = Data("RIFF".utf8) + littleEndian(UInt32(36 + samples.count)) + Data("WAVEfmt ".utf8)
        data += littleEndian(UInt32(16)) + littleEndian(UInt16(3)) + littleEndian(UInt16(1))
        data += littleEndian(rate) + littleEndian(rate * 8) + littleEndian(UInt16(8)) + littleEndian(UInt16(64))
        return data + Data("data".utf8) + littleEndian(UInt32(samples.count)) + samples
    }

    private static let sixteenWithSpike: [Double] = Array(repeating: 0.5, count: 15) + [1e160]

    // MARK: - Item 2: large finite values

    @Test(arguments: ["1e160", "1e155", "-3e200", "1.7976931348623157e308", "1e101", "\"1e160\"", " 2e150 "])
    func csvCellBeyondTheLimitNamesLineAndColumn(_ cell: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = ["a"] + Array(repeating: "0.5", count: 15) + [cell]
        try rows.joined(separator: "\n").write(
            to: directory.appendingPathComponent("big.csv"), atomically: false, encoding: .utf8)
        try expectRefused(
            ["process", "big.csv", "--rate", "1000", "--window", "16"], in: directory,
            mentions: ["big.csv", "line 17", "column 1", "1e100"])
    }

    @Test func csvCellAtTheLimitMeasures() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = ["a"] + Array(repeating: "0.5", count: 15) + ["1e100"]
        try rows.joined(separator: "\n").write(
            to: directory.appendingPathComponent("edge.csv"), atomically: false, encoding: .utf8)
        let result = try SondeBinary.run(["process", "edge.csv", "--rate", "1000", "--window", "16"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 2)
        let cells = result.stdout.split(separator: "\n").dropFirst().flatMap { $0.split(separator: ",").dropFirst(2) }
        #expect(!cells.isEmpty && cells.allSatisfy { Double($0)?.isFinite == true }, "\(result.stdout)")
    }

    @Test func rawFloat64BeyondTheLimitNamesTheSample() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.float64Bytes(Self.sixteenWithSpike).write(to: directory.appendingPathComponent("big.f64"))
        try expectRefused(
            ["process", "big.f64", "--rate", "1000", "--window", "16"], in: directory,
            mentions: ["big.f64", "sample 15"])
    }

    @Test func doubleWAVBeyondTheLimitNamesFrameAndChannel() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.doubleWAV(Self.sixteenWithSpike, rate: 1000).write(to: directory.appendingPathComponent("big.wav"))
        try expectRefused(
            ["process", "big.wav", "--window", "16"], in: directory, mentions: ["big.wav", "frame 15", "channel ch0"])
    }

    @Test func streamFromStandardInputBeyondTheLimit() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectRefused(
            ["stream", "--input", "-", "--rate", "1000", "--sample-type", "f64le", "--window", "16"],
            stdin: Self.float64Bytes(Self.sixteenWithSpike), in: directory, mentions: ["stdin", "sample 15"])
    }

    struct ProfileCase: Sendable, CustomStringConvertible {
        var setting: String
        var line: Int
        var description: String { setting }
    }

    @Test(arguments: [
        ProfileCase(setting: "tone = 10 3.5e38", line: 3), ProfileCase(setting: "offset = 1e39", line: 3),
        ProfileCase(setting: "tone = 10 1 1e39", line: 3), ProfileCase(setting: "noise = 1e38", line: 3),
        ProfileCase(setting: "drift = 1e39 10", line: 3), ProfileCase(setting: "impulses = 1 -1e39", line: 3),
        ProfileCase(setting: "tone = 1e300 1", line: 3), ProfileCase(setting: "drift = 1 1e-300", line: 3),
        ProfileCase(setting: "tone = 10 3e38\noffset = 3e38", line: 2),
    ])
    func deviceProfileValueBeyondFloat32IsRefusedWithItsLine(_ profileCase: ProfileCase) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "rate = 1000\n[channel a]\n\(profileCase.setting)\n"
        try text.write(to: directory.appendingPathComponent("loud.profile"), atomically: false, encoding: .utf8)
        try expectRefused(
            ["stream", "--profile", "loud.profile", "--frames", "2", "--as-fast-as-possible"], in: directory,
            mentions: ["loud.profile", "line \(profileCase.line)"])
        try expectRefused(
            ["device", "pair", "--profile", "loud.profile"], in: directory,
            mentions: ["loud.profile", "line \(profileCase.line)"])
    }

    @Test(arguments: [
        ["--tone", "10:1e39"], ["--tone", "10:1:1e39"], ["--offset", "1e39"], ["--offset", "-1e39"],
        ["--noise", "1e38"],
        ["--drift", "1e39:10"], ["--impulses", "1:1e39"], ["--tone", "1e300:1"], ["--noise", "nan"],
    ])
    func deviceFlagBeyondFloat32IsRefusedNamingTheOption(_ flag: [String]) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectRefused(
            ["stream", "--rate", "1000", "--frames", "2", "--as-fast-as-possible"] + flag, in: directory,
            mentions: [flag[0]])
    }

    @Test(arguments: ["1e-307", "1e-10", "1e13", "1e308", "-5", "0", "nan", "inf"])
    func rateOutsideItsRangeIsRefused(_ rate: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try (["a"] + Array(repeating: "0.5", count: 16)).joined(separator: "\n")
            .write(to: directory.appendingPathComponent("ok.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "ok.csv", "--rate", rate, "--window", "16"], in: directory, mentions: ["--rate"])
    }

    /// A time column whose steps give a rate outside 1e-9...1e12 Hz names the file.
    @Test(arguments: ["0\n1e-300\n2e-300", "0\n1e20\n2e20"])
    func timeColumnRateOutsideItsRangeIsRefused(_ times: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = times.split(separator: "\n").map { "\($0),0.5" }
        try (["time,a"] + rows).joined(separator: "\n")
            .write(to: directory.appendingPathComponent("t.csv"), atomically: false, encoding: .utf8)
        try expectRefused(["process", "t.csv", "--window", "16"], in: directory, mentions: ["t.csv", "rate"])
    }

    // MARK: - Item 3: a FLAC whose STREAMINFO says 0 total samples (unknown)

    @Test func flacOfUnknownLengthIsMeasured() throws {
        let flac = Fixtures.packageRoot.appendingPathComponent(
            "Tests/Fuzz/regressions/flac-unknown-length-2ch/input.flac")
        let result = try SondeBinary.run(["process", flac.path, "--features", "rms"])
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        // 3000 frames of two channels at 8 kHz: frames 0...3 of 1024 samples with a hop of 512.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 4 * 2)
        #expect(lines.last?.hasPrefix("0.192,ch1,3,1536,") == true, "\(lines.last ?? "")")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    // MARK: - Item 6: the smaller ones

    /// `stream --input -` drops a partial trailing sample with a note, as `process` does.
    @Test(arguments: ["stream", "process"])
    func partialTrailingSampleOfStandardInputIsNoted(_ command: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Self.float64Bytes(Array(repeating: 0.25, count: 32)) + Data([1, 2, 3])
        let arguments = command == "stream" ? ["stream", "--input", "-"] : ["process", "-"]
        let result = try SondeBinary.run(
            arguments + ["--rate", "1000", "--sample-type", "f64le", "--window", "16", "--features", "mean"],
            stdin: bytes, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: stdin: ignored a partial last frame (3 of 8 bytes)"), "\(result.stderr)")
    }

    /// An invalid email is echoed with its control characters escaped, never raw.
    @Test(arguments: ["ann\u{1B}[31m@example", "bob\u{9B}2J@x", "eve\u{7}\u{202E}@example"])
    func invalidEmailIsEchoedWithControlsEscaped(_ email: String) throws {
        let user = try AccountUser()
        defer { try? FileManager.default.removeItem(at: user.home.deletingLastPathComponent()) }
        let result = try user.run(["register", "--email", email, "--password-stdin"], stdin: "correct horse\n")
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("Error: Invalid email address '"), "\(result.stderr)")
        let controls = result.stderr.unicodeScalars.filter {
            $0 != "\n" && [.control, .format].contains($0.properties.generalCategory)
        }
        #expect(controls.isEmpty, "raw control characters in: \(result.stderr.debugDescription)")
        #expect(result.stderr.contains("\\u{"), "\(result.stderr.debugDescription)")
    }

    // MARK: - Item 4: options without bounds

    @Test(arguments: [
        (["process", "ok.csv", "--rate", "1000", "--ring-capacity", "9223372036854775807"], "--ring-capacity"),
        (["process", "ok.csv", "--rate", "1000", "--ring-capacity", "1099511627776"], "--ring-capacity"),
        (["process", "ok.csv", "--rate", "1000", "--ring-capacity", "-1"], "--ring-capacity"),
        (["process", "ok.csv", "--rate", "1000", "--jobs", "1000000"], "--jobs"),
        (["process", "ok.csv", "--rate", "1000", "--jobs", "-3"], "--jobs"),
        (["process", "ok.csv", "--rate", "1000", "--channels", "100000"], "--channels"),
        (["stream", "--tone", "10:1", "--rate", "1000", "--duration", "1e15"], "--duration"),
        (["stream", "--tone", "10:1", "--rate", "1000", "--duration", "-1s"], "--duration"),
        (["stream", "--tone", "10:1", "--rate", "1000", "--frames", "9223372036854775807"], "--frames"),
        (["stream", "--tone", "10:1", "--rate", "1000", "--jobs", "1000000"], "--jobs"),
        (["bench", "--seconds", "1e300"], "--seconds"),
        (["bench", "--jobs", "100000"], "--jobs"),
        (["measure", "--duration", "1e15"], "--duration"),
        (["measure", "--jobs", "0"], "--jobs"),
    ])
    func numericOptionOutsideItsRangeIsRefused(_ arguments: [String], option: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try (["a"] + Array(repeating: "0.5", count: 16)).joined(separator: "\n")
            .write(to: directory.appendingPathComponent("ok.csv"), atomically: false, encoding: .utf8)
        try expectRefused(arguments, in: directory, mentions: [option])
    }

    /// The largest duration at the largest rate does not overflow the frame count.
    @Test func longestDurationAtTheHighestRateRuns() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.float64Bytes(Array(repeating: 0.25, count: 64)).write(to: directory.appendingPathComponent("x.f64"))
        let result = try SondeBinary.run(
            [
                "stream", "--input", "x.f64", "--rate", "1e12", "--duration", "1e9", "--window", "16", "--features",
                "mean", "-q",
            ],
            in: directory)
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(result.stdout.split(separator: "\n").count == 7)
    }
}
