import Foundation
import Testing
import _SondeTestSupport

@testable import SondeCore

/// Records print numbers with `ShortestDecimal`, not `Double.description`, for speed;
/// docs/features.md asks for the shortest text that reads back to the same Double, and we
/// promise `description`'s spelling of it. These tests hold the two together byte for byte
/// (and check the round trip) over the values where a shortest-digits algorithm goes
/// wrong: interval ends at powers of two, exact powers of ten, ties, subnormals, every
/// digit count, the switches between plain and exponential forms. The two random tests
/// take `SONDE_FORMAT_CHECK_VALUES` values each (100,000 unless set) for longer runs.
@Suite("Number formatting")
struct NumberFormattingTests {
    private let randomCount =
        ProcessInfo.processInfo.environment["SONDE_FORMAT_CHECK_VALUES"].flatMap(Int.init) ?? 100_000

    private func expectDescriptionSpelling(
        _ values: some Sequence<Double>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var buffer: [UInt8] = []
        var mismatches = 0
        for value in values where value.isFinite {
            for signed in [value, -value] {
                buffer.removeAll(keepingCapacity: true)
                buffer.appendNumber(signed)
                let text = String(decoding: buffer, as: UTF8.self)
                if text != signed.description || Double(text) != signed {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record(
                            "\(signed.bitPattern): got \(text), description \(signed.description)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
        }
        #expect(mismatches == 0, sourceLocation: sourceLocation)
    }

    @Test func randomBitPatternsAreSpelledAsDescription() {
        var generator = SplitMix64(seed: 17)
        expectDescriptionSpelling((0..<randomCount).lazy.map { _ in Double(bitPattern: generator.next()) })
    }

    /// Feature values: magnitudes from 1e-12 to 1e6, 15 to 17 significant digits.
    @Test func featureLikeValuesAreSpelledAsDescription() {
        var generator = SplitMix64(seed: 18)
        let scales = [1e-12, 1e-5, 1e-3, 0.5, 1, 40, 1e4, 1e6]
        expectDescriptionSpelling(
            (0..<randomCount).lazy.map { index in
                Double(generator.next() >> 11) * 0x1p-53 * scales[index % 8]
            })
    }

    /// Every power of two and its neighbours: where the interval below is half the one above.
    @Test func powersOfTwoAndTheirNeighboursAreSpelledAsDescription() {
        let powers = (-1074...1023).map { Double(sign: .plus, exponent: $0, significand: 1) }
        expectDescriptionSpelling(powers.flatMap { [$0, $0.nextUp, $0.nextDown] })
    }

    /// Powers of ten and their neighbours, exact (up to 1e22) or not.
    @Test func powersOfTenAndTheirNeighboursAreSpelledAsDescription() throws {
        let powers = try (-323...308).map { try #require(Double("1e\($0)")) }
        expectDescriptionSpelling(powers.flatMap { [$0, $0.nextUp, $0.nextDown] })
    }

    /// Decimals of 1 to 17 random digits at every exponent: the shortest form is often a
    /// shorter one than the input, and the ties between two candidates live here.
    @Test func decimalsOfEveryLengthAreSpelledAsDescription() throws {
        var generator = SplitMix64(seed: 19)
        var values: [Double] = []
        for digits in 1...17 {
            var limit: UInt64 = 1
            for _ in 0..<digits { limit *= 10 }
            for _ in 0..<3_000 {
                let exponent = Int(generator.next() % 640) - 330
                values.append(try #require(Double("\(generator.next() % limit)e\(exponent)")))
            }
        }
        expectDescriptionSpelling(values)
    }

    /// Whole numbers, including those around 2^53 and 2^54 where `description` switches
    /// to the exponential form, and fractions around the 1e-4 switch.
    @Test func formSwitchesAreSpelledAsDescription() {
        var values: [Double] = [0, 1e-4, 1e-5, 0.000099999, 9.999e-5, 0x1p53, 0x1p54, 1e15, 1e16, 1e17]
        for near in [0x1p53, 0x1p54, 1e16, 1e-4, 1e-5] {
            var below = near, above = near
            for _ in 0..<50 {
                below = below.nextDown
                above = above.nextUp
                values += [below, above]
            }
        }
        values += (0..<20_000).map { Double($0) }
        values += (0..<20_000).map { Double($0) / 1024 }
        values += (1...16).map { Double(sign: .plus, exponent: 52, significand: 1) * Double($0) / 8 + 0.5 }
        expectDescriptionSpelling(values)
    }

    @Test func subnormalsAreSpelledAsDescription() {
        var generator = SplitMix64(seed: 20)
        var values = (1...2_000).map { Double(bitPattern: UInt64($0)) }
        values += (0..<20_000).map { _ in Double(bitPattern: generator.next() & 0x000F_FFFF_FFFF_FFFF) }
        values.append(Double.leastNormalMagnitude.nextDown)
        expectDescriptionSpelling(values)
    }

    /// The generator's exactness claims, checked on entries whose value is known exactly.
    @Test func powerTableHoldsExactPowersPlusOne() {
        func entry(_ power: Int) -> (UInt64, UInt64) {
            let index = 2 * (power - ShortestDecimal.lowestPowerOfTen)
            return (ShortestDecimal.powersOfTen[index], ShortestDecimal.powersOfTen[index + 1])
        }
        #expect(entry(0) == (0x8000_0000_0000_0000, 1))
        #expect(entry(1) == (0xA000_0000_0000_0000, 1))
        // 10^22 = 0x21E19E0C9BAB2400000 exactly: left-aligned to 128 bits, plus one.
        #expect(entry(22) == (0x878678326EAC9000, 1))
        // 10^-1 = 0.1100110011...b: the 128-bit truncation is 0xCCCC...CCCC, plus one.
        #expect(entry(-1) == (0xCCCC_CCCC_CCCC_CCCC, 0xCCCC_CCCC_CCCC_CCCD))
    }
}
