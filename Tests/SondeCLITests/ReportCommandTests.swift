import Foundation
import Testing
import _SondeTestSupport

/// `sonde report` and `sonde measurements report`, looked at as a person would: where the
/// peak is drawn, which way a chirp climbs, what the page says.
@Suite struct ReportCommandTests {
    private func scratch() throws -> URL {
        try TestScratch.folder("sonde-report")
    }

    /// Little-endian doubles, as `--sample-type f64le` reads them.
    private func writeSamples(_ samples: [Double], to url: URL) throws {
        var data = Data(capacity: samples.count * 8)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        try data.write(to: url)
    }

    /// The text between the first `start` and the next `end` after it.
    private func slice(_ text: String, from start: String, to end: String) -> String? {
        guard let a = text.range(of: start), let b = text[a.upperBound...].range(of: end) else { return nil }
        return String(text[a.upperBound..<b.lowerBound])
    }

    @Test func chirpSpectrogramClimbsAndFiguresAreWritten() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fs = 8000.0, seconds = 4.0, f0 = 200.0, f1 = 3800.0
        let samples = (0..<Int(fs * seconds)).map { i -> Double in
            let t = Double(i) / fs
            return 0.5 * sin(2 * Double.pi * (f0 * t + 0.5 * (f1 - f0) / seconds * t * t))
        }
        try writeSamples(samples, to: directory.appendingPathComponent("chirp.f64"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("figures"), withIntermediateDirectories: true)
        let result = try SondeBinary.run(
            [
                "report", "chirp.f64", "--rate", "8000", "--sample-type", "f64le", "--window", "256", "-o",
                "chirp.html", "--figures", "figures",
            ],
            in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: directory.appendingPathComponent("chirp.html"), encoding: .utf8)
        let uri = try #require(
            slice(html, from: "<image class=\"spectrogram\"", to: "\"/>").flatMap {
                slice($0 + "\"", from: "href=\"", to: "\"")
            })
        let image = try PNGReader(dataURI: uri)
        #expect(image.width > 100 && image.height > 50)
        // Row index from the top of each column's brightest pixel: a climbing chirp's only falls.
        let rows = (0..<image.width).map { column in
            (0..<image.height).max {
                image.luminance(column: column, row: $0) < image.luminance(column: column, row: $1)
            } ?? 0
        }
        for (a, b) in zip(rows, rows.dropFirst()) { #expect(b <= a, "brightest rows \(rows)") }
        #expect((rows.first ?? 0) - (rows.last ?? 0) > image.height * 3 / 4)
        // The PNG file of --figures is the image of the page.
        let png = try Data(contentsOf: directory.appendingPathComponent("figures/01-chirp.f64-ch0-spectrogram.png"))
        #expect(try PNGReader([UInt8](png)).pixels.map { $0.0 } == image.pixels.map { $0.0 })
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("figures").path)
        for figure in ["spectrogram.svg", "spectrum.svg", "trend-rms.svg", "trend-dominant_frequency.svg"] {
            #expect(files.contains("01-chirp.f64-ch0-\(figure)"), "\(files)")
        }
    }

    @Test func toneSpectrumPeaksAtTheThousandHertzPixel() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 5)
        let samples = (0..<16_000).map { i in
            sin(2 * Double.pi * 1000 * Double(i) / 8000) + 0.01 * Double.random(in: -1...1, using: &random)
        }
        try writeSamples(samples, to: directory.appendingPathComponent("tone.f64"))
        let result = try SondeBinary.run(
            [
                "report", "tone.f64", "--rate", "8000", "--sample-type", "f64le", "--bands", "900-1100", "--features",
                "rms,thd", "-o", "tone.html",
            ],
            in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOf: directory.appendingPathComponent("tone.html"), encoding: .utf8)
        let svg = try #require(slice(html, from: "<figure class=\"spectrum\">", to: "</figure>"))
        let d = try #require(slice(svg, from: "class=\"spectrum\" d=\"", to: "\""))
        let points = d.split(whereSeparator: { $0 == "M" || $0 == "L" }).compactMap { part -> (Double, Double)? in
            let numbers = part.split(separator: " ").compactMap { Double($0) }
            return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
        }
        let highest = try #require(points.min { $0.1 < $1.1 })
        // The x of the tick label "1000" on the frequency axis.
        let label = try #require(
            slice(svg, from: "<text x=\"", to: ">1000</text>").flatMap { text in
                text.components(separatedBy: "<text x=\"").last.flatMap { Double($0.prefix { $0 != "\"" }) }
            })
        #expect(abs(highest.0 - label) <= 1, "peak at x=\(highest.0), the 1000 Hz label at x=\(label)")
        #expect(svg.contains("peak 1000 Hz") && svg.contains("class=\"band\"") && svg.contains("class=\"harmonic\""))
        // --features chose the trends; the bands are trended too; the table lists every column.
        #expect(
            html.contains("aria-label=\"rms\"") && html.contains("aria-label=\"thd\"")
                && html.contains("aria-label=\"band_power:900-1100\""))
        #expect(!html.contains("aria-label=\"kurtosis\""))
        #expect(html.contains("<tr data-column=\"thd\"><th scope=\"row\">THD <code>thd</code></th>"))
        // Self-contained: nothing fetched, nothing run.
        #expect(
            !html.contains("<script") && !html.contains("<link") && !html.contains("src=\"")
                && !html.contains("url(http"))
        #expect(
            html.components(separatedBy: "http").count
                == html.components(separatedBy: "http://www.w3.org/2000/svg").count)
    }

    @Test func inputShorterThanOneWindowIsAnErrorAndLeavesNoFile() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("r.html")
        let result = try SondeBinary.run([
            "report", "inputs/motor_1ch_44k1_pcm16.wav", "--window", "32768", "-o", output.path,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("fewer than one window of 32768"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let missing = try SondeBinary.run([
            "report", "inputs/motor_1ch_44k1_pcm16.wav", "-o", output.path, "--figures",
            directory.appendingPathComponent("nope").path,
        ])
        #expect(missing.status == 64 && missing.stderr.contains("no such folder"))
    }

    /// A saved measurement's page: its device, comment and time, trends and the table,
    /// whose means agree with `measurements show`.
    @Test func measurementReportShowsTheSavedValues() throws {
        let user = try AccountUser()
        for result in try user.registerAndLogIn("ops@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        #expect(try user.run(["device", "pair", "--seed", "4"]).status == 0)
        let measured = try user.run([
            "measure", "--duration", "1s", "--comment", "after the <bearing> change", "--features", "rms,kurtosis",
        ])
        #expect(measured.status == 0, "\(measured.stderr)")
        let output = TestScratch.root.appendingPathComponent("sonde-m-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: output) }
        let report = try user.run(["measurements", "report", "1", "-o", output.path])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOf: output, encoding: .utf8)
        #expect(html.contains("after the &lt;bearing&gt; change"))
        #expect(html.contains("<h2>Measurement 1</h2>"))
        #expect(html.contains("aria-label=\"rms\"") && html.contains("aria-label=\"kurtosis\""))
        #expect(!html.contains("class=\"spectrogram\""))
        // Each channel's mean rms in the table is the one `measurements show` prints (4 digits).
        let export = RecordTable(csv: try user.run(["measurements", "export", "1"]).stdout)
        let rms = try #require(export.index(of: "rms")), channel = try #require(export.index(of: "channel"))
        let first = try #require(export.rows.first?[channel])
        let ch0 = export.rows.filter { $0[channel] == first }.compactMap { Double($0[rms]) }
        #expect(ch0.count == 49)
        let mean = ch0.reduce(0, +) / Double(ch0.count)
        let row = try #require(
            slice(html, from: "<tr data-column=\"rms\">", to: "</tr>").flatMap {
                slice($0, from: "<td class=\"number\">", to: "</td>")
            })
        #expect(abs((Double(row) ?? 0) - mean) <= 1e-3 * abs(mean), "table \(row), records \(mean)")
        let unknown = try user.run(["measurements", "report", "1", "--features", "nope", "-o", output.path])
        #expect(unknown.status != 0 && unknown.stderr.contains("no column 'nope'"))
    }
}
