/// One feature column of one channel over a whole input: mean, min and max exactly; p5 and
/// p95 as numpy.percentile's (linear interpolation) exactly while the column's finite
/// values fit `exactCapacity`, and past that from a `QuantileSketch` (within 0.5% of the
/// value at numpy's lower rank), held to [min, max] so the table never contradicts itself.
public struct FeatureSummary: Sendable {
    public private(set) var count = 0
    /// Windows whose value means "not measured" (`FeatureLabel.unmeasuredReason`), left
    /// out of every statistic.
    public private(set) var unmeasured = 0
    private var sum = 0.0
    public private(set) var minimum = Double.infinity
    public private(set) var maximum = -Double.infinity
    /// The finite values while they fit `exactCapacity`; nil once the column outgrew it.
    private var exactValues: [Double]? = []
    private let exactCapacity: Int
    private var sketch = QuantileSketch()

    /// - Parameter exactCapacity: how many finite values are kept for exact percentiles
    ///   (8 bytes each); past that the percentiles are the sketch's.
    public init(exactCapacity: Int = 65_536) {
        self.exactCapacity = exactCapacity
    }

    public mutating func add(_ value: Double) {
        count += 1
        sum += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
        sketch.add(value)
        guard value.isFinite, exactValues != nil else { return }
        if exactValues?.count ?? 0 < exactCapacity {
            exactValues?.append(value)
        } else {
            exactValues = nil
        }
    }

    /// Counts a window that has no value for this column (not in any statistic).
    public mutating func addUnmeasured() {
        unmeasured += 1
    }

    public var mean: Double { count > 0 ? sum / Double(count) : 0 }
    public var p5: Double { percentile(5) }
    public var p95: Double { percentile(95) }

    /// Whether `p5` and `p95` are numpy's exactly (else the sketch's estimates).
    public var percentilesAreExact: Bool { exactValues != nil }

    /// numpy.percentile(values, `percent`) of the finite values (method "linear"), computed
    /// in numpy's own order of operations so the result is the same double; 0 when empty.
    public func percentile(_ percent: Double) -> Double {
        let q = percent / 100
        guard let values = exactValues else {
            guard let estimate = sketch.quantile(q) else { return 0 }
            return Swift.min(Swift.max(estimate, minimum), maximum)
        }
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        // numpy's _quantile for method "linear": the virtual index (n - 1) q, its floor and
        // the next index (both the last one from n - 1 on), then _lerp.
        let virtualIndex = Double(sorted.count - 1) * q
        guard virtualIndex < Double(sorted.count - 1) else { return sorted[sorted.count - 1] }
        let below = Swift.max(virtualIndex, 0).rounded(.down)
        let lower = sorted[Int(below)], upper = sorted[Int(below) + 1]
        let t = virtualIndex - below
        let difference = upper - lower
        return t >= 0.5 ? upper - difference * (1 - t) : lower + difference * t
    }
}
