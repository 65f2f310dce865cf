import Foundation
import Testing

@testable import SondeDSP

/// `FastKurtogram.computeKeepingBest` keeps the node it filtered for the best cell instead of
/// filtering that band again: the same grid, the same cell and the same samples, bit for bit,
/// as `compute`, `best(envelopeNyquistAtLeast:)` and `bandSignal`.
@Suite("Fast kurtogram, the best band kept")
struct FastKurtogramKeptBandTests {
    /// Nyquist limits as fractions of the sample rate: none, ones that rule out the finest
    /// rows, one only row 0 meets, and one no row meets (row 0 then, as the diagnosis takes).
    static let nyquistFractions = [0.0, 0.005, 0.03, 0.1, 0.3, 0.5, 0.6]

    @Test(arguments: KurtogramFixtures.signalNames)
    func keptBandIsTheBestCellsBandSignal(_ name: String) throws {
        let (reference, _, samples) = try KurtogramFixtures.load(name)
        let rate = reference.sampleRate
        let grid = try FastKurtogram.compute(samples, sampleRate: rate, levels: reference.nlevel)
        var rows = Set<Int>()
        for fraction in Self.nyquistFractions {
            let nyquist = fraction * rate
            let kept = try samples.withUnsafeBufferPointer {
                try FastKurtogram.computeKeepingBest(
                    $0, sampleRate: rate, levels: reference.nlevel, envelopeNyquistAtLeast: nyquist)
            }
            #expect(kept.kurtogram == grid)
            let cell =
                nyquist == 0 ? grid.best : grid.best(envelopeNyquistAtLeast: nyquist) ?? grid.cell(row: 0, band: 0)
            #expect(kept.best == cell, "\(name), nyquist \(nyquist) Hz")
            let signal = try FastKurtogram.bandSignal(samples, sampleRate: rate, row: cell.row, band: cell.band)
            #expect(kept.signal.sampleRate == signal.sampleRate)
            #expect(kept.signal.samples.count == signal.samples.count)
            #expect(kept.signal.samples.map(\.x.bitPattern) == signal.samples.map(\.x.bitPattern))
            #expect(kept.signal.samples.map(\.y.bitPattern) == signal.samples.map(\.y.bitPattern))
            rows.insert(kept.best.row)
        }
        // The limits move the answer across rows, down to row 0, not only one.
        #expect(rows.count >= 2, "\(name): rows \(rows.sorted())")
        #expect(rows.contains(0))
    }

    /// The two- and three-band kurtosis keep each band's sums in the one-band order: the same bits.
    @Test(arguments: [17, 1000, 4099])
    func kurtosisOfSeveralBandsIsTheOneBandKurtosis(_ count: Int) {
        var generator = SplitMix(seed: UInt64(count))
        let bands = (0..<3).map { band in
            (0..<count).map { _ in
                SIMD2(generator.nextDouble() * Double(band + 1), generator.nextDouble() - 0.3)
            }
        }
        let silent = [SIMD2<Double>](repeating: .zero, count: count)
        let floor = 1e-20
        func one(_ band: [SIMD2<Double>]) -> Double {
            band.withUnsafeBufferPointer {
                KurtogramFilterBank.complexKurtosis($0.baseAddress!, count: count, floor: floor)
            }
        }
        bands[0].withUnsafeBufferPointer { a in
            bands[1].withUnsafeBufferPointer { b in
                silent.withUnsafeBufferPointer { c in
                    let pair = KurtogramFilterBank.complexKurtosis(
                        a.baseAddress!, b.baseAddress!, count: count, floor: floor)
                    #expect(pair.0.bitPattern == one(bands[0]).bitPattern)
                    #expect(pair.1.bitPattern == one(bands[1]).bitPattern)
                    let triple = KurtogramFilterBank.complexKurtosis(
                        a.baseAddress!, c.baseAddress!, b.baseAddress!, count: count, floor: floor)
                    #expect(triple.0.bitPattern == one(bands[0]).bitPattern)
                    #expect(triple.1 == 0)
                    #expect(triple.2.bitPattern == one(bands[1]).bitPattern)
                }
            }
        }
        #expect(one(bands[0]) != 0)
    }

    /// A small deterministic generator (SplitMix64), uniform doubles in [0, 1).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func nextDouble() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) / Double(1 << 53)
        }
    }
}
