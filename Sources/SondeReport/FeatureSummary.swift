/// One feature column of one channel over a whole input: mean, min, max exactly, p5 and
/// p95 from a `QuantileSketch` (within 0.5% of a sample value at numpy's rank).
public struct FeatureSummary: Sendable {
    public private(set) var count = 0
    private var sum = 0.0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity
    private var sketch = QuantileSketch()

    public init() {}

    public mutating func add(_ value: Double) {
        count += 1
        sum += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
        sketch.add(value)
    }

    public var mean: Double { count > 0 ? sum / Double(count) : 0 }
    public var p5: Double { sketch.quantile(0.05) ?? 0 }
    public var p95: Double { sketch.quantile(0.95) ?? 0 }
}
