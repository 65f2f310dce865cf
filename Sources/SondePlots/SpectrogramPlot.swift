/// A spectrogram figure: the `SpectrogramImage` PNG inline in SVG, with time and frequency
/// axes and a dB colour legend drawn as vectors around it.
public struct SpectrogramPlot: Sendable {
    public var title: String
    public var image: SpectrogramImage
    /// Seconds at the image's left and right edges.
    public var timeRange: ClosedRange<Double>
    /// Hz at the image's bottom and top edges.
    public var frequencyRange: ClosedRange<Double>
    /// The power's unit before dB, for the legend ("units²/Hz").
    public var unit: String
    public var layout: PlotLayout

    /// The figure of `spectrogram`, whose frames are `frameLength` samples `hop` apart at
    /// `sampleRate`, the first starting at `startTime` seconds.
    public init(
        title: String, spectrogram: Spectrogram, sampleRate: Double, frameLength: Int, hop: Int, startTime: Double = 0,
        unit: String = "units²/Hz", width: Double = 660, height: Double = 320
    ) {
        self.title = title
        image = SpectrogramImage(spectrogram)
        let df = sampleRate / Double(frameLength)
        // Row r averages bins r*b ..< (r+1)*b, each bin centred on its frequency.
        frequencyRange = (-0.5 * df)...((Double(spectrogram.rows * spectrogram.binsPerRow) - 0.5) * df)
        let seconds = Double(Swift.max(spectrogram.columnCount, 1) * spectrogram.framesPerColumn * hop) / sampleRate
        timeRange = startTime...(startTime + Swift.max(seconds, Double(frameLength) / sampleRate))
        self.unit = unit
        layout = PlotLayout(width: width, height: height)
        layout.right = 92
    }

    public func svg() -> String {
        let axes = PlotAxes(
            layout: layout, title: title, xTitle: "Time (s)", yTitle: "Frequency (Hz)",
            xTicks: PlotAxes.ticks(AxisTicks.linear(timeRange)) { layout.x($0, in: timeRange) },
            yTicks: PlotAxes.ticks(AxisTicks.linear(frequencyRange, target: 5).filter { $0 >= 0 }) {
                layout.y($0, in: frequencyRange)
            })
        var body = axes.background()
        body +=
            "<image class=\"spectrogram\" x=\"\(c(layout.left))\" y=\"\(c(layout.top))\" width=\"\(c(layout.plotWidth))\" height=\"\(c(layout.plotHeight))\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"\(image.dataURI)\"/>"
        body += axes.foreground()
        body += legend()
        return PlotAxes.document(layout, label: title, body: body)
    }

    /// The colour bar from the darkest to the brightest colour, labelled in dB.
    private func legend() -> String {
        let x = layout.left + layout.plotWidth + 14, top = layout.top, height = layout.plotHeight
        // Ids are document-wide in HTML: one per title, the same on every run (FNV-1a).
        let id =
            "scale" + String(title.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }, radix: 16)
        var svg = "<defs><linearGradient id=\"\(id)\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        for step in 0...16 {
            let position = Double(step) / 16
            svg +=
                "<stop offset=\"\(SVGText.number(position))\" stop-color=\"\(ColorMap.hex(ColorMap.color(at: position)))\"/>"
        }
        svg += "</linearGradient></defs>"
        svg +=
            "<rect class=\"legend\" x=\"\(c(x))\" y=\"\(c(top))\" width=\"14\" height=\"\(c(height))\" fill=\"url(#\(id))\" stroke=\"#333333\"/>"
        let range = image.bottomDecibels...image.topDecibels
        for level in AxisTicks.linear(range, target: 5) {
            let y = layout.y(level, in: range)
            svg += "<line x1=\"\(c(x + 14))\" y1=\"\(c(y))\" x2=\"\(c(x + 18))\" y2=\"\(c(y))\" stroke=\"#333333\"/>"
            svg += "<text x=\"\(c(x + 21))\" y=\"\(c(y + 4))\">\(SVGText.number(level))</text>"
        }
        svg +=
            "<text transform=\"translate(\(c(layout.width - 8)) \(c(top + height / 2))) rotate(-90)\" text-anchor=\"middle\">dB re 1 \(MarkupText.escaped(unit))</text>"
        return svg
    }

    private func c(_ value: Double) -> String { SVGText.coordinate(value) }
}
