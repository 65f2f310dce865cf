import Foundation

/// Percentiles of a stream in bounded memory, to a stated relative accuracy (the DDSketch
/// of Masson, Rim and Lee, VLDB 2019): values are counted in logarithmic buckets whose
/// width is a factor `(1 + α) / (1 - α)`, so a bucket's representative is within `α` of
/// every value in it.
///
/// Guarantee: `quantile(q)` is within `α · |x|` of `x`, the sorted value of 0-based rank
/// `floor(q · (n - 1))` (numpy's `percentile` interpolates between that value and the
/// next). At most `maximumBuckets` buckets per sign; past that the smallest magnitudes
/// merge, which only matters for values spread over more than `maximumBuckets · 2α / ln 10`
/// decades (35 with the defaults).
public struct QuantileSketch: Sendable {
    /// α, the relative accuracy.
    public let accuracy: Double
    public let maximumBuckets: Int
    private let logGamma: Double
    /// Counts of positive values and of negative values by magnitude: bucket `i` holds
    /// magnitudes in (γ^(i-1), γ^i], stored from `offset`.
    private var positive = Store()
    private var negative = Store()
    private var zeros = 0
    public private(set) var count = 0

    /// Magnitudes below this count as zero (a double's normal range ends near 1e-308).
    private static let smallest = 1e-300

    public init(accuracy: Double = 0.005, maximumBuckets: Int = 4096) {
        precondition(accuracy > 0 && accuracy < 1 && maximumBuckets >= 2)
        self.accuracy = accuracy
        self.maximumBuckets = maximumBuckets
        logGamma = log((1 + accuracy) / (1 - accuracy))
    }

    public mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        count += 1
        let magnitude = abs(value)
        guard magnitude >= Self.smallest else {
            zeros += 1
            return
        }
        let index = Int((log(magnitude) / logGamma).rounded(.up))
        if value > 0 { positive.add(index, limit: maximumBuckets) } else { negative.add(index, limit: maximumBuckets) }
    }

    /// Buckets in use, both signs: at most `2 * maximumBuckets`.
    public var bucketCount: Int { positive.counts.count + negative.counts.count }

    /// The value at quantile `q` in 0...1 (see the guarantee above); nil when empty.
    public func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((Swift.min(Swift.max(q, 0), 1) * Double(count - 1)).rounded(.down))
        var seen = 0
        // Most negative first: negative magnitudes from the largest bucket down.
        for (index, bucketCount) in negative.descending() {
            seen += bucketCount
            if seen > rank { return -representative(index) }
        }
        seen += zeros
        if seen > rank { return 0 }
        for (index, bucketCount) in positive.ascending() {
            seen += bucketCount
            if seen > rank { return representative(index) }
        }
        return nil
    }

    /// The value all of bucket `index` is within α of: 2γ^i / (γ + 1).
    private func representative(_ index: Int) -> Double {
        let gamma = exp(logGamma)
        return 2 * exp(Double(index) * logGamma) / (gamma + 1)
    }

    /// Dense counts from bucket `offset` on.
    private struct Store: Sendable {
        var offset = 0
        var counts: [Int] = []

        mutating func add(_ index: Int, limit: Int) {
            if counts.isEmpty {
                offset = index
                counts = [0]
            }
            if index < offset {
                // Below the lowest bucket: widen downwards, or fold into the lowest when full.
                let grow = offset - index
                if counts.count + grow <= limit {
                    counts.insert(contentsOf: repeatElement(0, count: grow), at: 0)
                    offset = index
                } else {
                    counts[0] += 1
                    return
                }
            } else if index >= offset + counts.count {
                let grow = index - offset - counts.count + 1
                if counts.count + grow > limit {
                    // Keep the largest magnitudes exact: merge the smallest into one bucket.
                    let shift = Swift.min(counts.count + grow - limit, counts.count)
                    let merged = counts[0..<shift].reduce(0, +)
                    counts.removeFirst(shift)
                    offset += shift
                    if counts.isEmpty {
                        // A jump past the whole range: the merged values stay the lowest bucket.
                        offset = index - (limit - 1)
                        counts = Array(repeating: 0, count: limit)
                        counts[0] = merged
                        counts[limit - 1] = 1
                        return
                    }
                    counts[0] += merged
                }
                counts.append(contentsOf: repeatElement(0, count: index - offset - counts.count + 1))
            }
            counts[index - offset] += 1
        }

        func ascending() -> some Sequence<(Int, Int)> {
            counts.indices.lazy.filter { counts[$0] > 0 }.map { (offset + $0, counts[$0]) }
        }

        func descending() -> some Sequence<(Int, Int)> {
            counts.indices.reversed().lazy.filter { counts[$0] > 0 }.map { (offset + $0, counts[$0]) }
        }
    }
}
