import Foundation
import SondePlots
import Testing
import _SondeTestSupport

/// The figures checked the way a person looks at them: where the peak is drawn, which way
/// a chirp goes, that no spike disappears in a long trend.
@Suite struct PlotPixelTests {
    /// The spectrum of a 1 kHz tone peaks at the pixel of the axis label "1000".
    @Test func toneSpectrumPeaksAtItsFrequencyPixel() throws {
        let fs = 8000.0, n = 256
        let samples = (0..<(n * 8)).map { sin(2 * Double.pi * 1000 * Double($0) / fs) + 0.01 * sin(Double($0) * 0.37) }
        var average = [Double](repeating: 0, count: n / 2 + 1)
        let frames = stride(from: 0, through: samples.count - n, by: n / 2).map { Array(samples[$0..<($0 + n)]) }
        for frame in frames {
            for (k, p) in Periodogram.density(frame, sampleRate: fs).enumerated() {
                average[k] += p / Double(frames.count)
            }
        }
        let frequencies = (0...(n / 2)).map { Double($0) * fs / Double(n) }
        var plot = SpectrumPlot(title: "tone", frequencies: frequencies, power: average, bands: [900...1100])
        plot.highestHarmonic = 3
        let svg = plot.svg()
        let points = SVGInspection.points(ofPathClass: "spectrum", in: svg)
        #expect(points.count == frequencies.count)
        let highest = try #require(points.min { $0.y < $1.y })
        let label = try #require(SVGInspection.xOfLabel("1000", in: svg))
        #expect(abs(highest.x - label) <= 1, "peak drawn at x=\(highest.x), the 1000 Hz label at x=\(label)")
        // The marks: the peak is labelled at 1000 Hz, harmonics 2x and 3x drawn at their pixels, the band shaded.
        #expect(svg.contains("peak 1000 Hz"))
        #expect(svg.components(separatedBy: "class=\"harmonic\"").count - 1 == 2)
        let label3000 = try #require(SVGInspection.xOfLabel("3000", in: svg))
        let harmonics = SVGInspection.numbers(after: "class=\"harmonic\" x1=\"", in: svg)
        #expect(
            harmonics.contains { abs($0 - label3000) <= 1 }, "harmonics at \(harmonics), 3000 Hz label at \(label3000)")
        #expect(svg.contains("class=\"band\""))
        // Log power axis: decade labels, the tone's power near the top.
        #expect(highest.y < plot.layout.top + plot.layout.plotHeight * 0.1)
    }

    /// More bins than pixels: the peak keeps its height and its pixel.
    @Test func denseSpectrumKeepsItsPeak() throws {
        let count = 32_769, fs = 65_536.0
        let frequencies = (0..<count).map { Double($0) * fs / 65_536 }
        var power = (0..<count).map { 1e-6 * (1 + 0.5 * sin(Double($0))) }
        power[12_345] = 1
        let plot = SpectrumPlot(title: "dense", frequencies: frequencies, power: power)
        let svg = plot.svg()
        let points = SVGInspection.points(ofPathClass: "spectrum", in: svg)
        #expect(points.count <= Int(plot.layout.plotWidth) + 2)
        let highest = try #require(points.min { $0.y < $1.y })
        #expect(abs(highest.x - plot.x(frequency: frequencies[12_345])) < 0.06)
        #expect(abs(highest.y - plot.y(power: 1)) < 0.06)
    }

    /// A linear chirp's spectrogram: the brightest pixel of each time column climbs.
    @Test func chirpSpectrogramClimbs() throws {
        let fs = 8000.0, n = 128, hop = 64
        let duration = 2.0
        let f0 = 200.0, f1 = 3600.0
        let count = Int(duration * fs)
        let samples = (0..<count).map { i -> Double in
            let t = Double(i) / fs
            return sin(2 * Double.pi * (f0 * t + 0.5 * (f1 - f0) / duration * t * t))
        }
        // Fewer columns than frames, so the pair merging is exercised too.
        var spectrogram = Spectrogram(binCount: n / 2 + 1, maximumRows: 40, capacity: 64)
        for start in stride(from: 0, through: count - n, by: hop) {
            let power = Periodogram.density(Array(samples[start..<(start + n)]), sampleRate: fs)
            power.withUnsafeBufferPointer { spectrogram.append($0) }
        }
        #expect(spectrogram.columnCount <= 64 && spectrogram.columnCount >= 32)
        let image = try PNGReader(SpectrogramImage(spectrogram).png)
        #expect(image.width == spectrogram.columnCount && image.height == spectrogram.rows)
        // Row index of the brightest pixel from the top: climbing means it falls, never rises.
        let brightestRows = (0..<image.width).map { column in
            (0..<image.height).max {
                image.luminance(column: column, row: $0) < image.luminance(column: column, row: $1)
            } ?? 0
        }
        for (a, b) in zip(brightestRows, brightestRows.dropFirst()) { #expect(b <= a, "\(brightestRows)") }
        #expect(brightestRows.first ?? 0 > (brightestRows.last ?? 0) + image.height / 2)
        let plot = SpectrogramPlot(title: "chirp", spectrogram: spectrogram, sampleRate: fs, frameLength: n, hop: hop)
            .svg()
        #expect(plot.contains("Time (s)") && plot.contains("Frequency (Hz)") && plot.contains("dB re 1"))
        #expect(plot.contains("href=\"data:image/png;base64,"))
    }

    /// A million frames in 600 columns: the one spike survives as a column's maximum and
    /// every column's mean is the mean of its frames.
    @Test func longTrendStaysBoundedAndKeepsSpikes() {
        var envelope = TrendEnvelope(capacity: 600)
        for i in 0..<1_000_000 { envelope.append(i == 777_777 ? 50 : Double(i % 10)) }
        let columns = envelope.columns
        #expect(columns.count <= 600 && columns.count > 300)
        #expect(columns.reduce(0) { $0 + $1.frames } == 1_000_000)
        #expect(columns.filter { $0.maximum == 50 }.count == 1)
        #expect(envelope.range == 0...50)
        let svg = TrendPlot(title: "rms", envelope: envelope, secondsPerFrame: 0.01).svg()
        #expect(svg.contains("class=\"envelope\""))
        #expect(SVGInspection.points(ofPathClass: "trend", in: svg).count == columns.count)
    }

    /// CRC-32 and Adler-32 against values published with their specifications.
    @Test func pngChecksumsMatchTheSpecifications() throws {
        // An empty IEND chunk's CRC is AE 42 60 82 in every PNG file (PNG spec, section 5).
        let png = PNGEncoder.indexed(width: 2, height: 1, palette: [(0, 0, 0), (255, 255, 255)], pixels: [0, 1])
        #expect(Array(png.suffix(4)) == [0xAE, 0x42, 0x60, 0x82])
        let image = try PNGReader(png)
        #expect(image.pixels.map { $0.0 } == [0, 255])
    }
}
