/// The frame every plot shares: title, data-area border, grid lines, tick labels and axis
/// titles, as SVG elements.
struct PlotAxes {
    /// A tick at a pixel position with its label.
    struct Tick {
        var position: Double
        var label: String
    }

    var layout: PlotLayout
    var title: String
    var xTitle: String
    var yTitle: String
    var xTicks: [Tick]
    var yTicks: [Tick]

    /// Ticks at `values`, placed by `position`, labelled with the decimals their spacing needs.
    static func ticks(_ values: [Double], position: (Double) -> Double) -> [Tick] {
        zip(values, AxisTicks.labels(values)).map { Tick(position: position($0.0), label: $0.1) }
    }

    /// Grid and border behind the data: call first.
    func background() -> String {
        let l = layout
        var svg =
            "<rect x=\"\(c(l.left))\" y=\"\(c(l.top))\" width=\"\(c(l.plotWidth))\" height=\"\(c(l.plotHeight))\" fill=\"#ffffff\" stroke=\"none\"/>"
        for tick in xTicks {
            svg +=
                "<line x1=\"\(c(tick.position))\" y1=\"\(c(l.top))\" x2=\"\(c(tick.position))\" y2=\"\(c(l.top + l.plotHeight))\" stroke=\"#e4e4e4\"/>"
        }
        for tick in yTicks {
            svg +=
                "<line x1=\"\(c(l.left))\" y1=\"\(c(tick.position))\" x2=\"\(c(l.left + l.plotWidth))\" y2=\"\(c(tick.position))\" stroke=\"#e4e4e4\"/>"
        }
        return svg
    }

    /// Border, tick labels and titles on top of the data: call last.
    func foreground() -> String {
        let l = layout
        let bottom = l.top + l.plotHeight
        var svg =
            "<rect x=\"\(c(l.left))\" y=\"\(c(l.top))\" width=\"\(c(l.plotWidth))\" height=\"\(c(l.plotHeight))\" fill=\"none\" stroke=\"#333333\"/>"
        for tick in xTicks {
            svg +=
                "<line x1=\"\(c(tick.position))\" y1=\"\(c(bottom))\" x2=\"\(c(tick.position))\" y2=\"\(c(bottom + 4))\" stroke=\"#333333\"/>"
            svg +=
                "<text x=\"\(c(tick.position))\" y=\"\(c(bottom + 16))\" text-anchor=\"middle\">\(MarkupText.escaped(tick.label))</text>"
        }
        for tick in yTicks {
            svg +=
                "<line x1=\"\(c(l.left - 4))\" y1=\"\(c(tick.position))\" x2=\"\(c(l.left))\" y2=\"\(c(tick.position))\" stroke=\"#333333\"/>"
            svg +=
                "<text x=\"\(c(l.left - 7))\" y=\"\(c(tick.position + 4))\" text-anchor=\"end\">\(MarkupText.escaped(tick.label))</text>"
        }
        svg +=
            "<text x=\"\(c(l.left + l.plotWidth / 2))\" y=\"\(c(l.height - 10))\" text-anchor=\"middle\">\(MarkupText.escaped(xTitle))</text>"
        svg +=
            "<text transform=\"translate(16 \(c(l.top + l.plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(MarkupText.escaped(yTitle))</text>"
        svg +=
            "<text x=\"\(c(l.left))\" y=\"18\" font-size=\"13\" font-weight=\"bold\">\(MarkupText.escaped(title))</text>"
        return svg
    }

    /// A whole SVG document around `body`.
    static func document(_ layout: PlotLayout, label: String, body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(c(layout.width))\" height=\"\(c(layout.height))\" viewBox=\"0 0 \(c(layout.width)) \(c(layout.height))\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"\(MarkupText.escaped(label))\">"
            + body + "</svg>"
    }

    private func c(_ value: Double) -> String { SVGText.coordinate(value) }
    private static func c(_ value: Double) -> String { SVGText.coordinate(value) }
}
