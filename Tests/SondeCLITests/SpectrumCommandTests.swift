import Foundation
import Testing
import _SondeTestSupport

/// One case of `Tests/Fixtures/spectrum_cases.json`: inputs and `sonde spectrum` options,
/// with the table `reference_spectrum.py` computed by `scipy.signal.welch`.
struct SpectrumCase: Decodable, CustomTestStringConvertible, Sendable {
    var name: String
    var inputs: [String]
    var args: [String]
    var expected: String

    var testDescription: String { name }

    static func all() throws -> [SpectrumCase] {
        try JSONDecoder().decode([SpectrumCase].self, from: Fixtures.data("spectrum_cases.json"))
    }
}

@Suite struct SpectrumCommandTests {
    /// The averaged spectrum agrees with scipy's Welch estimate bin for bin: docs/features.md's
    /// rule for powers, 1e-4 relative plus 1e-9 of the channel's total power.
    @Test(arguments: try SpectrumCase.all())
    func spectrumMatchesWelch(_ testCase: SpectrumCase) throws {
        let result = try SondeBinary.run(["spectrum"] + testCase.inputs + testCase.args)
        #expect(result.status == 0, "\(result.stderr)")
        let got = RecordTable(csv: result.stdout)
        let want = RecordTable(csv: String(decoding: try Fixtures.data(testCase.expected), as: UTF8.self))
        #expect(got.columns == want.columns)
        try #require(got.rows.count == want.rows.count, "rows: got \(got.rows.count), want \(want.rows.count)")
        let frequency = try #require(want.index(of: "frequency"))
        let fileColumn = want.index(of: "file")
        let channels = want.columns.indices.filter { $0 > frequency }
        // Each input's rows in turn: the floor is per input and channel.
        var groups: [String: [Int]] = [:]
        for (index, row) in want.rows.enumerated() {
            groups[fileColumn.map { row[$0] } ?? "", default: []].append(index)
        }
        #expect(groups.count == testCase.inputs.count)
        for rows in groups.values {
            let df = (Double(want.rows[rows[1]][frequency]) ?? 0) - (Double(want.rows[rows[0]][frequency]) ?? 0)
            for channel in channels {
                let total = rows.reduce(0.0) { $0 + (Double(want.rows[$1][channel]) ?? 0) } * df
                let floor = total > 0 ? 1e-9 * total : 1e-30
                for row in rows {
                    if let fileColumn { #expect(got.rows[row][fileColumn] == want.rows[row][fileColumn]) }
                    let gotF = try #require(Double(got.rows[row][frequency])),
                        wantF = try #require(Double(want.rows[row][frequency]))
                    #expect(abs(gotF - wantF) <= 1e-9 * Swift.max(abs(wantF), 1), "frequency row \(row)")
                    let g = try #require(Double(got.rows[row][channel])),
                        w = try #require(Double(want.rows[row][channel]))
                    #expect(
                        abs(g - w) <= 1e-4 * abs(w) + floor,
                        "\(want.columns[channel]) at \(wantF) Hz: got \(g), want \(w)")
                }
            }
        }
    }

    /// JSON carries the same numbers as CSV, one object per bin.
    @Test func jsonMatchesCSV() throws {
        let testCase = try #require(try SpectrumCase.all().first { $0.name == "raw_2ch_highpass" })
        let base = ["spectrum"] + testCase.inputs + testCase.args
        let csv = RecordTable(csv: try SondeBinary.run(base).stdout)
        let objects = try JSONRecord.decodeArray(try SondeBinary.run(base + ["--format", "json"]).stdout)
        #expect(objects.count == csv.rows.count && !objects.isEmpty)
        for (row, object) in zip(csv.rows, objects) {
            for (column, name) in csv.columns.enumerated() {
                #expect(object[name] == .number(Double(row[column]) ?? .nan), "\(name)")
            }
        }
    }

    /// An input shorter than one window is an error, and `-o` then leaves no file.
    @Test func inputShorterThanOneWindowIsAnError() throws {
        let scratch = try TestScratch.folder("sonde-spectrum")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("spectrum.csv")
        let result = try SondeBinary.run([
            "spectrum", "inputs/motor_1ch_44k1_pcm16.wav", "--window", "32768", "-o", output.path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("fewer than one window of 32768"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // The same input with a window that fits gives the file.
        let ok = try SondeBinary.run([
            "spectrum", "inputs/motor_1ch_44k1_pcm16.wav", "--window", "4096", "-o", output.path,
        ])
        #expect(ok.status == 0, "\(ok.stderr)")
        let table = RecordTable(csv: try String(contentsOf: output, encoding: .utf8))
        #expect(table.columns == ["frequency", "ch0"] && table.rows.count == 2049)
    }

    /// Bad input is refused as `process` refuses it: same status, same message.
    @Test(arguments: try BadCase.all().prefix(6))
    func badInputAsProcess(_ testCase: BadCase) throws {
        // Options that only `process` has do not apply here.
        guard !testCase.args.contains(where: { ["--bands", "--features"].contains($0) }) else { return }
        let process = try SondeBinary.run(["process"] + testCase.inputs + testCase.args)
        let spectrum = try SondeBinary.run(["spectrum"] + testCase.inputs + testCase.args)
        #expect(process.status != 0)
        #expect(spectrum.status == process.status)
        #expect(spectrum.stderr == process.stderr.replacingOccurrences(of: "sonde process", with: "sonde spectrum"))
        #expect(spectrum.stdout.isEmpty)
    }
}
