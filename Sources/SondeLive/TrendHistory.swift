import DequeModule

/// One step of a trend: the minimum, maximum and last value of each trended feature and
/// channel over `trendStep` seconds, so a spike between two points still shows.
struct TrendPoint: Sendable {
    /// Seconds of the step's first frame.
    var time: Double
    /// Per trended feature, then per channel: `feature * channels + channel`.
    var minimum: [Double]
    var maximum: [Double]
    var last: [Double]
}

/// A bounded history of trend points: the newest step is open and folds frames in.
struct TrendHistory {
    private(set) var stored = Deque<TrendPoint>()

    var points: [TrendPoint] { Array(stored) }

    /// Folds one frame in: into the open step, or a new one when `step` seconds have passed.
    mutating func add(
        time: Double, step: Double, keep: Int, values: [Double], offset: Int, channels: Int, columns: Int,
        selected: [Int]
    ) {
        let width = selected.count * channels
        if stored.last.map({ time >= $0.time + step || time < $0.time }) ?? true {
            let nan = [Double](repeating: .nan, count: width)
            stored.append(TrendPoint(time: time, minimum: nan, maximum: nan, last: nan))
            if stored.count > keep { stored.removeFirst(stored.count - keep) }
        }
        let index = stored.count - 1
        for (slot, column) in selected.enumerated() {
            for channel in 0..<channels {
                let value = values[offset + channel * columns + column]
                guard value.isFinite else { continue }
                let at = slot * channels + channel
                let low = stored[index].minimum[at], high = stored[index].maximum[at]
                stored[index].minimum[at] = low.isNaN ? value : min(low, value)
                stored[index].maximum[at] = high.isNaN ? value : max(high, value)
                stored[index].last[at] = value
            }
        }
    }
}
