/// Where a plot's data area sits in its SVG, and how data values map onto it: shared by
/// every plot so axes, marks and tests agree on the same pixels.
public struct PlotLayout: Sendable, Equatable {
    /// The whole figure, in px.
    public var width: Double
    public var height: Double
    /// Margins around the data area (room for the title, tick labels and axis titles).
    public var left = 78.0
    public var right = 24.0
    public var top = 30.0
    public var bottom = 48.0

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var plotWidth: Double { Swift.max(width - left - right, 1) }
    public var plotHeight: Double { Swift.max(height - top - bottom, 1) }

    /// The x pixel of `value` on an axis from `range.lowerBound` (left edge) to
    /// `range.upperBound` (right edge).
    public func x(_ value: Double, in range: ClosedRange<Double>) -> Double {
        left + fraction(value, range) * plotWidth
    }

    /// The y pixel of `value` on an axis from `range.lowerBound` (bottom) to `range.upperBound` (top).
    public func y(_ value: Double, in range: ClosedRange<Double>) -> Double {
        top + (1 - fraction(value, range)) * plotHeight
    }

    private func fraction(_ value: Double, _ range: ClosedRange<Double>) -> Double {
        let span = range.upperBound - range.lowerBound
        return span > 0 ? (value - range.lowerBound) / span : 0.5
    }
}
