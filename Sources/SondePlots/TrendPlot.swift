/// A feature over time, as SVG: a line through every frame's value while they fit in the
/// envelope's columns, else each column's min/max band with its mean as the line.
public struct TrendPlot: Sendable {
    public var title: String
    /// The values' unit, the value axis's title when given ("" for none: the axis repeats
    /// the title). The title above says what; a long title with its unit beside it did not
    /// fit along a 200-pixel axis.
    public var unit: String
    public var envelope: TrendEnvelope
    /// Seconds from one frame to the next (hop / sample rate).
    public var secondsPerFrame: Double
    /// The time of frame 0, in seconds.
    public var startTime: Double
    public var layout: PlotLayout

    public init(
        title: String, unit: String = "", envelope: TrendEnvelope, secondsPerFrame: Double, startTime: Double = 0,
        width: Double = 440, height: Double = 200
    ) {
        self.title = title
        self.unit = unit
        self.envelope = envelope
        self.secondsPerFrame = secondsPerFrame
        self.startTime = startTime
        layout = PlotLayout(width: width, height: height)
    }

    /// Seconds of frame `frame`.
    public func time(ofFrame frame: Double) -> Double { startTime + frame * secondsPerFrame }

    public var timeRange: ClosedRange<Double> {
        let last = time(ofFrame: Double(Swift.max(envelope.count - 1, 1)))
        return startTime...Swift.max(last, startTime + 1e-9)
    }

    public var valueRange: ClosedRange<Double> { AxisTicks.padded(envelope.range ?? 0...1) }

    public func svg() -> String {
        let xRange = timeRange, yRange = valueRange
        let axes = PlotAxes(
            layout: layout, title: title, xTitle: "Time (s)", yTitle: unit.isEmpty ? title : unit,
            xTicks: PlotAxes.ticks(AxisTicks.linear(xRange)) { layout.x($0, in: xRange) },
            yTicks: PlotAxes.ticks(AxisTicks.linear(yRange, target: 4)) { layout.y($0, in: yRange) })
        var body = axes.background()
        let columns = envelope.columns
        func point(_ frame: Double, _ value: Double) -> String {
            "\(c(layout.x(time(ofFrame: frame), in: xRange))) \(c(layout.y(value, in: yRange)))"
        }
        if envelope.framesPerColumn > 1 {
            // Each column spans its frames: upper edge along the maxima, back along the minima.
            var outline = ""
            for column in columns {
                let first = Double(column.firstFrame), last = Double(column.firstFrame + column.frames - 1)
                outline +=
                    (outline.isEmpty ? "M" : "L") + point(first, column.maximum) + "L" + point(last, column.maximum)
            }
            for column in columns.reversed() {
                let first = Double(column.firstFrame), last = Double(column.firstFrame + column.frames - 1)
                outline += "L" + point(last, column.minimum) + "L" + point(first, column.minimum)
            }
            body +=
                "<path class=\"envelope\" d=\"\(outline)Z\" fill=\"#1f77b4\" fill-opacity=\"0.3\" stroke=\"#1f77b4\" stroke-opacity=\"0.5\" stroke-width=\"0.5\"/>"
        }
        let line = columns.enumerated().map { index, column in
            (index == 0 ? "M" : "L") + point(Double(column.firstFrame) + Double(column.frames - 1) / 2, column.mean)
        }.joined()
        if columns.count == 1, let only = columns.first {
            let p = layout.x(time(ofFrame: Double(only.firstFrame)), in: xRange), q = layout.y(only.mean, in: yRange)
            body += "<circle class=\"trend\" cx=\"\(c(p))\" cy=\"\(c(q))\" r=\"2.5\" fill=\"#1f77b4\"/>"
        } else {
            body +=
                "<path class=\"trend\" d=\"\(line)\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>"
        }
        body += axes.foreground()
        return PlotAxes.document(layout, label: title, body: body)
    }

    private func c(_ value: Double) -> String { SVGText.coordinate(value) }
}
