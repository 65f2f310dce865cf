import Foundation
import SondePlots
import Testing

/// The envelope spectrum figure (issue 47, item 6): the defect lines and their harmonics where
/// a reader finds them, on an axis cut to them rather than the whole envelope band.
@Suite struct EnvelopeSpectrumPlotTests {
    /// A 6205-2RS at 1797 rpm: BPFO, BPFI, BSF, FTF in Hz.
    static let defects: [(name: String, frequency: Double)] = [
        ("BPFO", 107.36), ("BPFI", 162.19), ("BSF", 70.59), ("FTF", 11.93),
    ]

    /// 0-800 Hz in 1.5625 Hz bins, a floor of 1e-8 and lines at BPFO and its harmonics.
    static func spectrum() -> (frequencies: [Double], density: [Double]) {
        let frequencies = (0...512).map { Double($0) * 1.5625 }
        let density = frequencies.map { f in
            (1...3).contains { abs(f - Double($0) * 107.36) < 0.8 } ? 1e-5 : 1e-8
        }
        return (frequencies, density)
    }

    @Test func axisEndsPastTheHighestHarmonicAndMarksEveryLine() throws {
        let (frequencies, density) = Self.spectrum()
        let plot = EnvelopeSpectrumPlot(
            title: "envelope", frequencies: frequencies, density: density, defects: Self.defects)
        // 3.5 × BPFI: the 0-800 Hz band would put BPFO at 13% of the width, this at 19%.
        let limit = 3.5 * 162.19
        #expect(abs(plot.plot.frequencyRange.upperBound - plot.plot.frequencies.last!) < 1e-9)
        #expect(plot.plot.frequencies.last! <= limit && plot.plot.frequencies.last! > limit - 1.5625)
        let svg = plot.svg()
        let layout = plot.plot.layout
        for defect in Self.defects {
            let x = try #require(SVGInspection.xOfLabel(defect.name, in: svg), "\(defect.name)")
            // SVG coordinates are written to 0.1 px.
            #expect(abs(x - 2 - plot.plot.x(frequency: defect.frequency)) <= 0.1, "\(defect.name)")
        }
        let bpfo = try #require(SVGInspection.xOfLabel("BPFO", in: svg))
        #expect((bpfo - layout.left) / layout.plotWidth > 0.18)
        for label in ["2×BPFO", "3×BPFO", "2×BPFI", "3×BPFI", "3×FTF"] {
            #expect(SVGInspection.xOfLabel(label, in: svg) != nil, "\(label)")
        }
        // Four fundamentals and two harmonics each, all inside the axis.
        #expect(plot.markers.count == 12)
        #expect(svg.components(separatedBy: "class=\"marker\"").count - 1 == 12)
        // The spectrum's own "2×, 3× the peak" marks are off: the defect harmonics replace them.
        #expect(!svg.contains("class=\"harmonic\""))
        #expect(svg.contains("peak 107"))
    }

    @Test func withoutDefectsTheWholeBandIsDrawn() {
        let (frequencies, density) = Self.spectrum()
        let plot = EnvelopeSpectrumPlot(title: "envelope", frequencies: frequencies, density: density, defects: [])
        #expect(plot.plot.frequencies.count == frequencies.count)
        #expect(EnvelopeSpectrumPlot.frequencyLimit(last: 800, defects: [400], harmonics: 3) == 800)
        #expect(EnvelopeSpectrumPlot.frequencyLimit(last: 800, defects: [100, 50], harmonics: 1) == 150)
    }

    /// A 6205 at 1797 rpm puts 3×BSF 3 px left of 2×BPFO and 2×BPFI 2 px right of 3×BPFO: no
    /// two labels may share a row where they overlap (about 6 px a character).
    @Test func labelsDoNotOverlap() throws {
        let (frequencies, density) = Self.spectrum()
        let svg = EnvelopeSpectrumPlot(
            title: "envelope", frequencies: frequencies, density: density, defects: Self.defects
        ).svg()
        var labels: [(x: Double, y: Double, width: Double, text: String)] = []
        for part in svg.components(separatedBy: "<text x=\"").dropFirst() {
            let numbers = part.split(separator: "\"")
            guard numbers.count > 3, let x = Double(numbers[0]), let y = Double(numbers[2]),
                let open = part.firstIndex(of: ">"), let close = part.range(of: "</text>")
            else { continue }
            let text = String(part[part.index(after: open)..<close.lowerBound])
            guard text.contains("BPF") || text.contains("BSF") || text.contains("FTF") else { continue }
            labels.append((x, y, Double(text.count) * 6, text))
        }
        try #require(labels.count == 12, "\(labels.map(\.text))")
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] where a.y == b.y {
                let apart = a.x + a.width <= b.x || b.x + b.width <= a.x
                #expect(apart, "\(a.text) at \(a.x) and \(b.text) at \(b.x) share the row at y \(a.y)")
            }
        }
        let rows = Set(labels.map(\.y))
        #expect(rows.count >= 2, "the close lines need rows: \(rows.sorted())")
    }
}
