/// Rows for the labels of vertical marker lines, so that no two labels overlap: lines a few
/// pixels apart (3 × BSF and 2 × BPFO of a 6205 lie 1.4% apart) otherwise print one label
/// over the other.
enum MarkerLabelRows {
    /// Characters of a 10 px label are about 6 px wide (the band labels use the same figure).
    static let characterWidth = 6.0

    /// Each label's row (0 the top), in the order given: taken left to right, a label goes in
    /// the first row whose labels all end `gap` px before it starts.
    /// - Parameters:
    ///   - starts: each label's left edge, px.
    ///   - lengths: each label's length in characters.
    static func rows(starts: [Double], lengths: [Int], gap: Double = 3) -> [Int] {
        precondition(starts.count == lengths.count)
        var rows = [Int](repeating: 0, count: starts.count)
        var rowEnds: [Double] = []
        for index in starts.indices.sorted(by: { (starts[$0], $0) < (starts[$1], $1) }) {
            let start = starts[index]
            let end = start + Double(lengths[index]) * characterWidth
            if let row = rowEnds.firstIndex(where: { $0 + gap <= start }) {
                rows[index] = row
                rowEnds[row] = end
            } else {
                rows[index] = rowEnds.count
                rowEnds.append(end)
            }
        }
        return rows
    }
}
