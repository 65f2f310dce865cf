import Foundation

/// Antoni's fast kurtogram (MSSP 21, 2007): a tree of quasi-analytic filters, halving the rate
/// at each level, with a three-band split beside each binary level. See
/// docs/kurtogram-definition.md for the exact definition that the numpy reference follows.
public enum FastKurtogram {
    /// Fewest samples a kurtogram of `levels` levels accepts: 2^(levels+7), so that every band
    /// at the deepest level keeps at least 128 samples (Antoni's limit, log2 N - 7).
    public static func minimumLength(levels: Int) -> Int {
        1 << (levels + 7)
    }

    /// Computes the kurtogram of one channel.
    /// - Parameters:
    ///   - samples: the channel, at least `minimumLength(levels:)` finite samples.
    ///   - sampleRate: in Hz, > 0; only labels the bands.
    ///   - levels: binary levels, 1...30; the finest bands are fs/2^(levels+1) wide.
    /// - Throws: `KurtogramError`.
    public static func compute(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, levels: Int
    ) throws -> Kurtogram {
        try run(samples, sampleRate: sampleRate, levels: levels, keepingNyquistAtLeast: nil).kurtogram
    }

    /// Computes the kurtogram and keeps the band signal of its best cell among the rows whose
    /// band signal's Nyquist frequency is at least `nyquist` Hz (row 0 when none is): the same
    /// cell as `Kurtogram.best(envelopeNyquistAtLeast:) ?? cell(row: 0, band: 0)` and the same
    /// samples as `bandSignal` of it, without filtering that band a second time (a sixth of a
    /// diagnosis's filtering for a minute at 48 kHz).
    /// - Parameters:
    ///   - nyquist: Hz; 0 keeps the cell of `Kurtogram.best`.
    /// - Throws: `KurtogramError`, as `compute`.
    public static func computeKeepingBest(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, levels: Int, envelopeNyquistAtLeast nyquist: Double
    ) throws -> (kurtogram: Kurtogram, best: Kurtogram.Cell, signal: KurtogramBandSignal) {
        let result = try run(samples, sampleRate: sampleRate, levels: levels, keepingNyquistAtLeast: nyquist)
        let kurtogram = result.kurtogram
        let best = kurtogram.cell(row: result.kept.row, band: result.kept.band)
        let signal =
            result.kept.samples
            ?? KurtogramBandSignal(samples: samples.map { SIMD2($0, 0) }, sampleRate: sampleRate)
        return (kurtogram, best, signal)
    }

    /// The best cell so far, scanning as `Kurtogram.best(envelopeNyquistAtLeast:)` does, and its
    /// band signal (nil for row 0, the input itself).
    private struct KeptCell {
        var row = 0
        var band = 0
        var value: Double
        var samples: KurtogramBandSignal?

        /// Scans a finished row in band order (a strictly larger value wins, as `best`);
        /// `node(band)` gives the winner's filtered node when it is in this row.
        mutating func scan(
            row: Int, values: [Double], rate: Double,
            node: (Int) -> (start: UnsafePointer<SIMD2<Double>>, count: Int)
        ) {
            var winner: Int?
            for (band, candidate) in values.enumerated() where candidate > value {
                winner = band
                value = candidate
            }
            guard let winner else { return }
            self.row = row
            band = winner
            let (start, count) = node(winner)
            let warmUp = KurtogramFilterBank.warmUp
            samples = KurtogramBandSignal(
                samples: Array(UnsafeBufferPointer(start: start + warmUp, count: count - warmUp)), sampleRate: rate)
        }
    }

    /// The filter bank over every level: the grid, and when `nyquist` is given the best
    /// qualifying cell and its band signal.
    private static func run(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, levels: Int, keepingNyquistAtLeast nyquist: Double?
    ) throws -> (kurtogram: Kurtogram, kept: KeptCell) {
        try validate(samples, sampleRate: sampleRate, levels: levels)
        let count = samples.count
        let floor = silentFloor(samples)
        var rows = [
            Kurtogram.Row(
                level: 0, bandwidth: sampleRate / 2,
                values: [KurtogramFilterBank.realKurtosis(samples, floor: floor)])
        ]
        rows.reserveCapacity(2 * levels)
        var kept = KeptCell(value: rows[0].values[0])
        // Only rows whose band rate / 2 reaches `nyquist` are candidates; rates fall row by
        // row, so once one fails every later one does (and row 0 failing leaves row 0).
        var keeping = nyquist.map { sampleRate / 2 >= $0 } ?? false
        // Two level buffers (every level's nodes side by side fit in `count` samples) and
        // one for the thirds of every node of a level (as many samples again).
        let current = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: count)
        let next = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: count)
        let thirds = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: count)
        defer {
            current.deallocate()
            next.deallocate()
            thirds.deallocate()
        }
        for i in 0..<count {
            current[i] = SIMD2(samples[i], 0)
        }
        var parent = current
        var children = next
        var parentLength = count
        // The band signal's rate as `bandSignal` derives it: halved per level, a third last.
        var binaryRate = sampleRate
        let warmUp = KurtogramFilterBank.warmUp
        KurtogramFilterBank.allTaps.withUnsafeBufferPointer { taps in
            guard let taps = taps.baseAddress else { return }
            for level in 1...levels {
                let nodes = 1 << (level - 1)
                let childLength = parentLength / 2
                var binary = [Double](repeating: 0, count: 2 * nodes)
                var ternary: [Double] = []
                let splitsInThirds = level < levels
                if splitsInThirds {
                    ternary = [Double](repeating: 0, count: 3 * nodes)
                }
                let thirdLength = parentLength / 3
                for node in 0..<nodes {
                    let z = UnsafePointer(parent + node * parentLength)
                    let low = children + 2 * node * childLength
                    let high = low + childLength
                    KurtogramFilterBank.splitInHalves(z, count: parentLength, low: low, high: high, taps: taps)
                    (binary[2 * node], binary[2 * node + 1]) = KurtogramFilterBank.complexKurtosis(
                        low + warmUp, high + warmUp, count: childLength - warmUp, floor: floor)
                    guard splitsInThirds else { continue }
                    let first = thirds + 3 * node * thirdLength
                    KurtogramFilterBank.splitInThirds(
                        z, count: parentLength, into: first, stride: thirdLength,
                        taps: taps + KurtogramFilterBank.thirdsOffset)
                    (ternary[3 * node], ternary[3 * node + 1], ternary[3 * node + 2]) =
                        KurtogramFilterBank.complexKurtosis(
                            first + warmUp, first + thirdLength + warmUp, first + 2 * thirdLength + warmUp,
                            count: thirdLength - warmUp, floor: floor)
                }
                let thirdRate = binaryRate / 3
                binaryRate /= 2
                rows.append(
                    Kurtogram.Row(level: Double(level), bandwidth: sampleRate / Double(2 << level), values: binary))
                if let nyquist, keeping {
                    keeping = binaryRate / 2 >= nyquist
                    if keeping {
                        kept.scan(row: rows.count - 1, values: binary, rate: binaryRate) {
                            (UnsafePointer(children + $0 * childLength), childLength)
                        }
                    }
                }
                if splitsInThirds {
                    rows.append(
                        Kurtogram.Row(
                            level: Double(level - 1) + log2(3.0), bandwidth: sampleRate / Double(3 << level),
                            values: ternary))
                    if let nyquist, keeping {
                        keeping = thirdRate / 2 >= nyquist
                        if keeping {
                            kept.scan(row: rows.count - 1, values: ternary, rate: thirdRate) {
                                (UnsafePointer(thirds + $0 * thirdLength), thirdLength)
                            }
                        }
                    }
                }
                swap(&parent, &children)
                parentLength = childLength
            }
        }
        return (Kurtogram(sampleRate: sampleRate, levels: levels, rows: rows), kept)
    }

    /// Computes the kurtogram of one channel; a convenience for arrays.
    public static func compute(_ samples: [Double], sampleRate: Double, levels: Int) throws -> Kurtogram {
        try samples.withUnsafeBufferPointer { try compute($0, sampleRate: sampleRate, levels: levels) }
    }

    /// The complex signal of one cell: the node of the same filter bank, warm-up dropped, at
    /// its own (decimated) rate. Its modulus squared is the band's squared envelope, and its
    /// kurtosis is the cell's value.
    /// - Parameters:
    ///   - samples: the channel the kurtogram was computed from (at least
    ///     `minimumLength(levels: ⌈cell level⌉)` finite samples).
    ///   - row, band: the cell (`Kurtogram.Cell.row`, `.band`).
    /// - Throws: `KurtogramError`.
    public static func bandSignal(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, row: Int, band: Int
    ) throws -> KurtogramBandSignal {
        guard row >= 0, row <= 60 else { throw KurtogramError.invalidCell(row: row, band: band) }
        let ternary = row > 0 && row % 2 == 0
        let depth = ternary ? row / 2 - 1 : (row + 1) / 2
        let bandCount = ternary ? 3 << depth : 1 << depth
        guard band >= 0, band < bandCount else { throw KurtogramError.invalidCell(row: row, band: band) }
        try validate(samples, sampleRate: sampleRate, levels: max(1, ternary ? depth + 2 : depth))
        guard row > 0 else {
            return KurtogramBandSignal(samples: samples.map { SIMD2($0, 0) }, sampleRate: sampleRate)
        }
        var node = [SIMD2<Double>](samples.lazy.map { SIMD2($0, 0) })
        var rate = sampleRate
        let path = ternary ? band / 3 : band
        KurtogramFilterBank.allTaps.withUnsafeBufferPointer { taps in
            guard let taps = taps.baseAddress else { return }
            for bit in stride(from: depth - 1, through: 0, by: -1) {
                let half = node.count / 2
                var low = [SIMD2<Double>](repeating: .zero, count: half)
                var high = low
                node.withUnsafeBufferPointer { z in
                    low.withUnsafeMutableBufferPointer { low in
                        high.withUnsafeMutableBufferPointer { high in
                            guard let z = z.baseAddress, let l = low.baseAddress, let h = high.baseAddress else {
                                return
                            }
                            KurtogramFilterBank.splitInHalves(z, count: node.count, low: l, high: h, taps: taps)
                        }
                    }
                }
                node = (path >> bit) & 1 == 1 ? high : low
                rate /= 2
            }
            if ternary {
                let third = node.count / 3
                var split = [SIMD2<Double>](repeating: .zero, count: 3 * third)
                node.withUnsafeBufferPointer { z in
                    split.withUnsafeMutableBufferPointer { out in
                        guard let z = z.baseAddress, let out = out.baseAddress else { return }
                        KurtogramFilterBank.splitInThirds(
                            z, count: node.count, into: out, stride: third,
                            taps: taps + KurtogramFilterBank.thirdsOffset)
                    }
                }
                let b = band % 3
                node = Array(split[(b * third)..<((b + 1) * third)])
                rate /= 3
            }
        }
        return KurtogramBandSignal(
            samples: Array(node[KurtogramFilterBank.warmUp...]), sampleRate: rate)
    }

    /// The complex signal of one cell; a convenience for arrays.
    public static func bandSignal(
        _ samples: [Double], sampleRate: Double, row: Int, band: Int
    ) throws -> KurtogramBandSignal {
        try samples.withUnsafeBufferPointer { try bandSignal($0, sampleRate: sampleRate, row: row, band: band) }
    }

    private static func validate(_ samples: UnsafeBufferPointer<Double>, sampleRate: Double, levels: Int) throws {
        guard (1...30).contains(levels) else { throw KurtogramError.invalidLevels(levels) }
        guard sampleRate.isFinite, sampleRate > 0 else { throw KurtogramError.invalidSampleRate(sampleRate) }
        let minimum = minimumLength(levels: levels)
        guard samples.count >= minimum else {
            throw KurtogramError.tooShort(count: samples.count, levels: levels, minimum: minimum)
        }
        if let index = samples.firstIndex(where: { !$0.isFinite }) {
            throw KurtogramError.nonFiniteSample(index: index)
        }
    }

    /// `silentFraction` of the input's mean square.
    private static func silentFloor(_ samples: UnsafeBufferPointer<Double>) -> Double {
        var sum = 0.0
        for value in samples {
            sum += value * value
        }
        return KurtogramFilterBank.silentFraction * sum / Double(samples.count)
    }
}

/// The complex (quasi-analytic) signal of one kurtogram cell at its own sample rate.
public struct KurtogramBandSignal: Sendable, Equatable {
    /// (re, im) per sample.
    public let samples: [SIMD2<Double>]
    /// Its sample rate, Hz: fs / 2^k for level k, fs / (3 · 2^k) for level k + log2 3.
    public let sampleRate: Double
}
