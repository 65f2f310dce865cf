/// A coarse time x frequency picture of a stream of unknown length: at most `capacity`
/// columns of `rows` frequency rows, each the mean `P[k]` of its frames and bins. When the
/// columns are full, neighbours merge in pairs, so memory stays `capacity x rows` numbers
/// (1 MiB with the defaults) however long the input.
public struct Spectrogram: Sendable {
    /// Bins per frame, N/2 + 1.
    public let binCount: Int
    /// Consecutive bins averaged into one row.
    public let binsPerRow: Int
    public let rows: Int
    /// Columns kept at most (even).
    public let capacity: Int
    public private(set) var framesPerColumn = 1
    public private(set) var frameCount = 0
    /// Column after column, `rows` sums each.
    private var sums: [Double] = []

    /// - Parameters:
    ///   - binCount: N/2 + 1 of the frames to come.
    ///   - maximumRows: rows kept at most; bins are grouped evenly to fit.
    ///   - capacity: columns kept at most, rounded up to even, >= 2.
    public init(binCount: Int, maximumRows: Int = 256, capacity: Int = 512) {
        precondition(binCount >= 1 && maximumRows >= 1)
        self.binCount = binCount
        binsPerRow = (binCount + maximumRows - 1) / maximumRows
        rows = (binCount + binsPerRow - 1) / binsPerRow
        self.capacity = Swift.max(2, capacity + capacity % 2)
        sums.reserveCapacity(self.capacity * rows)
    }

    /// Adds the next frame's `P[k]` (`binCount` values).
    public mutating func append(_ power: UnsafeBufferPointer<Double>) {
        precondition(power.count == binCount)
        var column = frameCount / framesPerColumn
        if column == capacity {
            mergePairs()
            column = frameCount / framesPerColumn
        }
        if column * rows == sums.count { sums.append(contentsOf: repeatElement(0, count: rows)) }
        let base = column * rows
        sums.withUnsafeMutableBufferPointer { sums in
            for k in 0..<binCount { sums[base + k / binsPerRow] += power[k] }
        }
        frameCount += 1
    }

    private mutating func mergePairs() {
        let half = capacity / 2
        for i in 0..<half {
            for row in 0..<rows { sums[i * rows + row] = sums[2 * i * rows + row] + sums[(2 * i + 1) * rows + row] }
        }
        sums.removeLast((capacity - half) * rows)
        framesPerColumn *= 2
    }

    /// Columns filled so far.
    public var columnCount: Int { sums.count / Swift.max(rows, 1) }

    /// The mean power of column `column`, row `row` (row 0 = the lowest frequencies).
    public func power(column: Int, row: Int) -> Double {
        let frames = Swift.min(framesPerColumn, frameCount - column * framesPerColumn)
        let bins = Swift.min(binsPerRow, binCount - row * binsPerRow)
        return sums[column * rows + row] / Double(frames * bins)
    }
}
