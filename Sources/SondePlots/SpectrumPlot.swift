import Foundation

/// An averaged spectrum on a logarithmic power axis, with its dominant peak, that peak's
/// harmonics and the requested bands marked, as SVG.
///
/// More bins than pixels are drawn per pixel column as the band between the column's
/// smallest and largest value, with the largest as the line: a narrow peak keeps its
/// height and place at any zoom.
public struct SpectrumPlot: Sendable {
    public var title: String
    /// Bin frequencies in Hz, ascending (`f[k] = k * fs / N`).
    public var frequencies: [Double]
    /// Power per bin, same count as `frequencies`.
    public var power: [Double]
    /// The power's unit, for the axis title.
    public var unit: String
    /// Frequency bands to shade, in Hz.
    public var bands: [ClosedRange<Double>]
    public var layout: PlotLayout
    /// Harmonics marked: 2 up to this multiple of the peak, where they fit.
    public var highestHarmonic = 5

    public init(
        title: String, frequencies: [Double], power: [Double], unit: String = "units²/Hz",
        bands: [ClosedRange<Double>] = [],
        width: Double = 660, height: Double = 320
    ) {
        precondition(frequencies.count == power.count)
        self.title = title
        self.frequencies = frequencies
        self.power = power
        self.unit = unit
        self.bands = bands
        layout = PlotLayout(width: width, height: height)
    }

    /// The x axis, 0 Hz to the last bin.
    public var frequencyRange: ClosedRange<Double> { 0...Swift.max(frequencies.last ?? 1, 1e-9) }

    /// The y axis as log10 of power: whole decades around the data, at most twelve below
    /// the top (a spectrum's floor of round-off would otherwise flatten everything).
    public var logPowerRange: ClosedRange<Double> {
        let positive = power.filter { $0 > 0 && $0.isFinite }
        guard let high = positive.max(), let low = positive.min() else { return -1...0 }
        // Headroom above the peak, so its mark and label stay inside the frame.
        let top = (log10(high) + 0.2).rounded(.up)
        let bottom = Swift.max(log10(low).rounded(.down), top - 12)
        return bottom < top ? bottom...top : (top - 1)...top
    }

    /// The dominant peak: the strongest bin from bin 2 on (bins 0 and 1 hold the window's DC
    /// leakage, as docs/features.md's `dominant_frequency`), refined by a parabola through the
    /// log powers around it; nil when every such bin is 0.
    public var dominantPeak: (frequency: Double, power: Double)? {
        guard power.count > 2 else { return nil }
        var best = 2
        for k in 2..<power.count where power[k] > power[best] { best = k }
        guard power[best] > 0 else { return nil }
        var offset = 0.0
        if best + 1 < power.count {
            let a = log(Swift.max(power[best - 1], 1e-300)), b = log(power[best]),
                c = log(Swift.max(power[best + 1], 1e-300))
            let denominator = a - 2 * b + c
            if denominator != 0 { offset = Swift.min(Swift.max(0.5 * (a - c) / denominator, -0.5), 0.5) }
        }
        let df = frequencies.count > 1 ? frequencies[1] - frequencies[0] : 0
        return (frequencies[best] + offset * df, power[best])
    }

    /// Multiples 2, 3, ... of the dominant peak's frequency up to `highestHarmonic`, within the axis.
    public var harmonics: [Double] {
        guard let peak = dominantPeak, peak.frequency > 0, highestHarmonic >= 2 else { return [] }
        return (2...highestHarmonic).map { Double($0) * peak.frequency }.filter { $0 <= frequencyRange.upperBound }
    }

    /// The y pixel of a power value (clamped to the axis).
    public func y(power value: Double) -> Double { y(power: value, in: logPowerRange) }

    /// `y(power:)` on an axis computed once (`logPowerRange` scans every bin).
    private func y(power value: Double, in range: ClosedRange<Double>) -> Double {
        let logValue = value > 0 ? log10(value) : range.lowerBound
        return layout.y(Swift.min(Swift.max(logValue, range.lowerBound), range.upperBound), in: range)
    }

    /// The x pixel of a frequency in Hz.
    public func x(frequency: Double) -> Double { layout.x(frequency, in: frequencyRange) }

    public func svg() -> String { svg(markers: []) }

    /// The figure with `markers` drawn over the spectrum: labelled vertical lines, their labels
    /// in as many rows as it takes for none to overlap another (`MarkerLabelRows`).
    public func svg(markers: [FrequencyMarker]) -> String {
        let xRange = frequencyRange, yRange = logPowerRange
        let axes = PlotAxes(
            layout: layout, title: title, xTitle: "Frequency (Hz)", yTitle: "Power (\(unit), log)",
            xTicks: PlotAxes.ticks(AxisTicks.linear(xRange)) { x(frequency: $0) },
            yTicks: AxisTicks.decades(yRange).map {
                .init(position: layout.y(Double($0), in: yRange), label: SVGText.number(pow(10, Double($0))))
            })
        var body = axes.background()
        body += bandMarks()
        body += curve(yRange)
        body += peakMarks(yRange)
        body += markerLines(markers)
        body += axes.foreground()
        return PlotAxes.document(layout, label: title, body: body)
    }

    private func bandMarks() -> String {
        var svg = ""
        let top = layout.top, height = layout.plotHeight
        for band in bands {
            let x0 = x(frequency: band.lowerBound),
                x1 = x(frequency: Swift.min(band.upperBound, frequencyRange.upperBound))
            svg +=
                "<rect class=\"band\" x=\"\(c(x0))\" y=\"\(c(top))\" width=\"\(c(Swift.max(x1 - x0, 1)))\" height=\"\(c(height))\" fill=\"#4a90d9\" fill-opacity=\"0.12\" stroke=\"#4a90d9\" stroke-opacity=\"0.5\" stroke-dasharray=\"2 3\"/>"
            let label = "\(SVGText.number(band.lowerBound))–\(SVGText.number(band.upperBound)) Hz"
            // Labelled only where the label fits in the band (about 6 px a character at 10 px).
            if x1 - x0 >= Double(label.count) * 6 + 4 {
                svg +=
                    "<text x=\"\(c(x0 + 3))\" y=\"\(c(top + height - 5))\" fill=\"#2a6099\" font-size=\"10\">\(label)</text>"
            }
        }
        return svg
    }

    /// The spectrum: per pixel column, the band between min and max, and the line through
    /// each column's max at the x of the bin that holds it.
    private func curve(_ yRange: ClosedRange<Double>) -> String {
        guard !power.isEmpty else { return "" }
        var line = ""
        var upper: [(Double, Double)] = []
        var lower: [(Double, Double)] = []
        var k = 0
        while k < power.count {
            let column = (x(frequency: frequencies[k]) - layout.left).rounded(.down)
            var highest = k, lowest = k
            var end = k + 1
            while end < power.count, (x(frequency: frequencies[end]) - layout.left).rounded(.down) == column {
                if power[end] > power[highest] { highest = end }
                if power[end] < power[lowest] { lowest = end }
                end += 1
            }
            let xHigh = x(frequency: frequencies[highest])
            line += (line.isEmpty ? "M" : "L") + "\(c(xHigh)) \(c(y(power: power[highest], in: yRange)))"
            if end - k > 1 {
                let xColumn = layout.left + column + 0.5
                upper.append((xColumn, y(power: power[highest], in: yRange)))
                lower.append((xColumn, y(power: power[lowest], in: yRange)))
            }
            k = end
        }
        var svg = ""
        if upper.count > 1 {
            let outline = upper + lower.reversed()
            let d = outline.enumerated().map { ($0.offset == 0 ? "M" : "L") + "\(c($0.element.0)) \(c($0.element.1))" }
                .joined()
            svg += "<path class=\"envelope\" d=\"\(d)Z\" fill=\"#1f77b4\" fill-opacity=\"0.25\" stroke=\"none\"/>"
        }
        svg +=
            "<path class=\"spectrum\" d=\"\(line)\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>"
        return svg
    }

    private func peakMarks(_ yRange: ClosedRange<Double>) -> String {
        guard let peak = dominantPeak else { return "" }
        var svg = ""
        let top = layout.top, bottom = layout.top + layout.plotHeight
        var lastLabel = -Double.infinity
        for (index, frequency) in harmonics.enumerated() {
            let hx = x(frequency: frequency)
            svg +=
                "<line class=\"harmonic\" x1=\"\(c(hx))\" y1=\"\(c(top))\" x2=\"\(c(hx))\" y2=\"\(c(bottom))\" stroke=\"#e67e22\" stroke-dasharray=\"4 3\"/>"
            // Lines closer than a label's width share the first one's label.
            if hx - lastLabel >= 18 {
                svg +=
                    "<text x=\"\(c(hx + 2))\" y=\"\(c(top + 11))\" fill=\"#b35900\" font-size=\"10\">\(index + 2)×</text>"
                lastLabel = hx
            }
        }
        let px = x(frequency: peak.frequency), py = y(power: peak.power, in: yRange)
        svg +=
            "<circle class=\"peak\" cx=\"\(c(px))\" cy=\"\(c(py))\" r=\"4\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>"
        let anchor = px > layout.left + layout.plotWidth * 0.75 ? "end" : "start"
        let dx = anchor == "end" ? -7.0 : 7.0
        svg +=
            "<text class=\"peak-label\" x=\"\(c(px + dx))\" y=\"\(c(Swift.max(py - 6, top + 22)))\" fill=\"#d62728\" text-anchor=\"\(anchor)\">peak \(SVGText.number(peak.frequency)) Hz</text>"
        return svg
    }

    private func markerLines(_ markers: [FrequencyMarker]) -> String {
        var svg = ""
        let top = layout.top, bottom = layout.top + layout.plotHeight
        let shown = markers.filter { frequencyRange.contains($0.frequency) }
        let rows = MarkerLabelRows.rows(
            starts: shown.map { x(frequency: $0.frequency) + 2 }, lengths: shown.map(\.label.count))
        for (index, marker) in shown.enumerated() {
            let mx = x(frequency: marker.frequency)
            let dash = marker.isHarmonic ? " stroke-dasharray=\"2 3\"" : ""
            svg +=
                "<line class=\"marker\" x1=\"\(c(mx))\" y1=\"\(c(top))\" x2=\"\(c(mx))\" y2=\"\(c(bottom))\" stroke=\"\(marker.colour)\"\(dash)/>"
            let row = Double(rows[index])
            svg +=
                "<text x=\"\(c(mx + 2))\" y=\"\(c(top + 24 + 11 * row))\" fill=\"\(marker.colour)\" font-size=\"10\">\(MarkupText.escaped(marker.label))</text>"
        }
        return svg
    }

    private func c(_ value: Double) -> String { SVGText.coordinate(value) }
}
