import Foundation
import SondeDSP
import Testing
import _SondeTestSupport

/// `sonde spectrum --envelope`: the table against the library's envelope spectra bit for bit
/// and against the numpy reference (Tests/Fixtures/kurtogram/envelope_spectrum.json) within the
/// kurtogram tests' tolerance, the band note, and the refusals.
@Suite struct SpectrumEnvelopeCommandTests {
    static let rate = 25600.0
    static let rawInput = ["--rate", "25600", "--sample-type", "f64le"]

    /// The outer-race fixture (38400 samples, 25.6 kHz) as raw f64le samples.
    static func samples() throws -> [Double] {
        let bytes = try Fixtures.data("kurtogram/outer_snr_m5.f64")
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map {
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
            }
        }
    }

    /// `channels` interleaved into a scratch f64le file.
    static func write(_ channels: [[Double]], name: String) throws -> URL {
        var bytes = Data(capacity: 8 * channels.count * channels[0].count)
        for frame in channels[0].indices {
            for channel in channels {
                withUnsafeBytes(of: channel[frame].bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        let url = try TestScratch.folder("sonde-spectrum-envelope").appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    /// The CSV's rows: frequency, then one optional value per channel (nil for an empty field).
    static func table(_ csv: String) -> (header: String, rows: [[Double?]]) {
        let lines = csv.split(separator: "\n").map(String.init)
        let rows = lines.dropFirst().map { line in
            line.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        }
        return (lines.first ?? "", rows)
    }

    static func expectedReference(_ band: String, window: Int) throws -> (psd: [Double], segment: Int) {
        struct Reference: Decodable {
            struct Case: Decodable {
                let band: String
                let window: Int
                let segmentLength: Int
                let psd: [Double]
            }
            let cases: [Case]
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let reference = try decoder.decode(Reference.self, from: Fixtures.data("kurtogram/envelope_spectrum.json"))
        let item = try #require(reference.cases.first { $0.band == band && $0.window == window })
        return (item.psd, item.segmentLength)
    }

    @Test(arguments: [("auto", 16384), ("auto", 1024), ("2000-4000", 1024)])
    func matchesTheLibraryBitForBitAndNumpy(band: String, window: Int) throws {
        let samples = try Self.samples()
        // A second channel at twice the amplitude: the same band, 16 times the density.
        let file = try Self.write([samples, samples.map { 2 * $0 }], name: "two.f64")
        let run = try SondeBinary.run(
            ["spectrum", file.path, "--channels", "2", "--envelope", "--band", band, "--window", "\(window)"]
                + Self.rawInput)
        #expect(run.status == 0, "\(run.stderr)")
        let (header, rows) = Self.table(run.stdout)
        #expect(header == "frequency,ch0,ch1", "\(header)")
        let choice = try #require(EnvelopeBand(parsing: band, levels: 6))
        let library = try samples.withUnsafeBufferPointer {
            try ChannelEnvelopeSpectrum($0, sampleRate: Self.rate, band: choice, window: window)
        }
        try #require(rows.count == library.spectrum.density.count)
        for (bin, row) in rows.enumerated() {
            #expect(row[0] == Double(bin) * library.spectrum.resolution)
            #expect(row[1] == library.spectrum.density[bin], "bin \(bin)")
            #expect(row[2] == 16 * library.spectrum.density[bin], "bin \(bin)")
        }
        let reference = try Self.expectedReference(band, window: window)
        #expect(library.spectrum.segmentLength == reference.segment)
        let peak = try #require(reference.psd.max())
        for (bin, row) in rows.enumerated() {
            let value = try #require(row[1])
            #expect(abs(value - reference.psd[bin]) <= 1e-9 * peak, "bin \(bin)")
        }
        let how = band == "auto" ? "(kurtogram level 4, kurtosis" : "(given)"
        let low = band == "auto" ? "2400-3200" : band
        #expect(run.stderr.contains("channel ch0: envelope of band \(low) Hz \(how)"), "\(run.stderr)")
        #expect(run.stderr.contains("channel ch1: envelope of band \(low) Hz"), "\(run.stderr)")
    }

    @Test func jsonAndEveryJobsCountGiveTheSameBytes() throws {
        let samples = try Self.samples()
        let file = try Self.write([samples, Array(samples.reversed())], name: "jobs.f64")
        let arguments = ["spectrum", file.path, "--channels", "2", "--envelope", "--format", "json"] + Self.rawInput
        let one = try SondeBinary.run(arguments + ["--jobs", "1"])
        let two = try SondeBinary.run(arguments + ["--jobs", "2"])
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        #expect(one.stdout == two.stdout)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count > 2 && rows[1]["frequency"] as? Double != nil && rows[1]["ch0"] != nil)
    }

    @Test func badInputAndOptionsThatDoNotApplyAreClearErrors() throws {
        let samples = try Self.samples()
        let file = try Self.write([samples], name: "one.f64")
        let short = try Self.write([Array(samples[0..<1500])], name: "short.f64")
        func run(_ path: URL, _ options: [String]) throws -> SondeBinary.Result {
            try SondeBinary.run(["spectrum", path.path, "--channels", "1"] + options + Self.rawInput)
        }
        let nyquist = try run(file, ["--envelope", "--band", "2000-13000"])
        #expect(
            nyquist.status == 1
                && nyquist.stderr.contains("envelope band 2000-13000 Hz: expected 0 <= LO < HI <= 12800"),
            "\(nyquist.stderr)")
        let tooShort = try run(short, ["--envelope"])
        #expect(tooShort.status == 1 && tooShort.stderr.contains("too short for 6 levels"), "\(tooShort.stderr)")
        let tooShortBand = try run(short, ["--envelope", "--band", "2000-4000"])
        #expect(
            tooShortBand.status == 1 && tooShortBand.stderr.contains("fewer than the 2048"), "\(tooShortBand.stderr)")
        let refused: [([String], String)] = [
            (["--envelope", "--hop", "256"], "--hop does not apply to --envelope"),
            (["--envelope", "--filter", "highpass:10"], "--filter does not apply to --envelope"),
            (["--envelope", "--cpu-report"], "--cpu-report does not apply to --envelope"),
            (["--envelope", "--ring-capacity", "1048576"], "--ring-capacity does not apply to --envelope"),
            (["--envelope", "--band", "2000"], "expected auto or LO-HI"),
            (["--envelope", "--band", "2000-4000", "--levels", "4"], "it applies to --band auto only"),
            (["--band", "auto"], "give --envelope too"),
            (["--levels", "4"], "--levels is the kurtogram's"),
        ]
        for (options, message) in refused {
            let result = try run(file, options)
            #expect(result.status == 64 && result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        let help = try SondeBinary.run(["spectrum", "--help"])
        #expect(help.stdout.contains("--envelope") && help.stdout.contains("--band 2000-4000"), "\(help.stdout)")
    }
}
