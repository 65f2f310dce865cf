/// A feature's values over a stream of unknown length, kept as at most `capacity` columns
/// of (min, max, sum): when the columns are full, neighbours merge in pairs and each column
/// then covers twice as many frames. Memory stays `3 x capacity` numbers however long the
/// stream, and a plot draws the min/max envelope, so no spike is lost.
public struct TrendEnvelope: Sendable {
    /// Columns kept at most (even, >= 2).
    public let capacity: Int
    /// Frames each column covers (a power of two); the last column may hold fewer.
    public private(set) var framesPerColumn = 1
    /// Frames appended.
    public private(set) var count = 0
    private var minimum: [Double] = []
    private var maximum: [Double] = []
    private var sum: [Double] = []

    /// - Parameter capacity: columns kept at most, rounded up to even, >= 2 (about the
    ///   plot's width in pixels).
    public init(capacity: Int = 600) {
        self.capacity = Swift.max(2, capacity + capacity % 2)
        minimum.reserveCapacity(self.capacity)
        maximum.reserveCapacity(self.capacity)
        sum.reserveCapacity(self.capacity)
    }

    /// Adds the next frame's value.
    public mutating func append(_ value: Double) {
        var column = count / framesPerColumn
        if column == capacity {
            mergePairs()
            column = count / framesPerColumn
        }
        if column == minimum.count {
            minimum.append(value)
            maximum.append(value)
            sum.append(value)
        } else {
            minimum[column] = Swift.min(minimum[column], value)
            maximum[column] = Swift.max(maximum[column], value)
            sum[column] += value
        }
        count += 1
    }

    private mutating func mergePairs() {
        let half = capacity / 2
        for i in 0..<half {
            minimum[i] = Swift.min(minimum[2 * i], minimum[2 * i + 1])
            maximum[i] = Swift.max(maximum[2 * i], maximum[2 * i + 1])
            sum[i] = sum[2 * i] + sum[2 * i + 1]
        }
        minimum.removeLast(capacity - half)
        maximum.removeLast(capacity - half)
        sum.removeLast(capacity - half)
        framesPerColumn *= 2
    }

    /// One column: the frames `firstFrame..<firstFrame + frames` and their extremes and mean.
    public struct Column: Sendable, Equatable {
        public var firstFrame: Int
        public var frames: Int
        public var minimum: Double
        public var maximum: Double
        public var mean: Double
    }

    public var columns: [Column] {
        minimum.indices.map { i in
            let first = i * framesPerColumn
            let frames = Swift.min(framesPerColumn, count - first)
            return Column(
                firstFrame: first, frames: frames, minimum: minimum[i], maximum: maximum[i],
                mean: sum[i] / Double(frames))
        }
    }

    /// The smallest and largest value appended, nil before the first.
    public var range: ClosedRange<Double>? {
        guard let low = minimum.min(), let high = maximum.max() else { return nil }
        return low...high
    }
}
