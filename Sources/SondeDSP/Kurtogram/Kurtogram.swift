/// A fast kurtogram: spectral kurtosis on Antoni's 1/3-binary grid of bands, and its best cell.
///
/// Rows run from the coarsest level to the finest: row 0 is level 0 (the whole band, one
/// cell); row 2k-1 is level k (2^k bands of fs/2^(k+1)); row 2k is level k-1 + log2 3
/// (the thirds of each level-(k-1) band: 3·2^(k-1) bands of fs/(3·2^k)), for k < levels.
/// Band i of a row spans [i·bw, (i+1)·bw] Hz.
public struct Kurtogram: Sendable, Equatable {
    /// One level of the grid.
    public struct Row: Sendable, Equatable {
        /// log2(fs / bandwidth) - 1: 0, 1, 1.585, 2, 2.585, ...
        public let level: Double
        /// Width of every band of the row, Hz.
        public let bandwidth: Double
        /// Spectral kurtosis per band, lowest frequency first (excess over a Gaussian: 0).
        public let values: [Double]
    }

    /// One cell of the grid.
    public struct Cell: Sendable, Equatable {
        /// Index into `rows`.
        public let row: Int
        /// The row's level.
        public let level: Double
        /// Band index within the row, 0 = lowest frequency.
        public let band: Int
        /// Centre of the band, Hz: (band + 1/2) · bandwidth.
        public let centre: Double
        /// Width of the band, Hz.
        public let bandwidth: Double
        /// Its spectral kurtosis.
        public let kurtosis: Double
    }

    /// Sample rate of the analysed signal, Hz.
    public let sampleRate: Double
    /// Number of binary levels (the finest row is level `levels`).
    public let levels: Int
    /// The grid, coarsest row first; `2 · levels` rows.
    public let rows: [Row]

    /// The first largest kurtosis, scanning rows from the coarsest and each row from the lowest
    /// band: a tie goes to the wider band, then to the lower frequency.
    public var best: Cell {
        var bestRow = 0
        var bestBand = 0
        for (r, row) in rows.enumerated() {
            for (band, value) in row.values.enumerated() where value > rows[bestRow].values[bestBand] {
                bestRow = r
                bestBand = band
            }
        }
        return cell(row: bestRow, band: bestBand)
    }

    /// The cell at `row`, `band` (both in range).
    public func cell(row: Int, band: Int) -> Cell {
        let bandwidth = rows[row].bandwidth
        return Cell(
            row: row, level: rows[row].level, band: band, centre: (Double(band) + 0.5) * bandwidth,
            bandwidth: bandwidth, kurtosis: rows[row].values[band])
    }
}
