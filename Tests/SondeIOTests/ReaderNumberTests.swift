import Foundation
import SondeCore
import Testing
import _SondeTestSupport

@testable import SondeIO

#if canImport(Glibc)
    import Glibc
#endif

/// The CSV number grammar and conversion, checked against glibc's strtod.
@Suite struct ReaderNumberTests {
    let scanner = DecimalScanner()

    /// Scans `text` as a whole cell: a Double only if all of it is a number.
    func scan(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        let count = bytes.count
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            if case .number(let value, let end) = scanner.scan(base), end == base + count { return value }
            return nil
        }
    }

    /// What strtod gives for the whole of `text` (nil if it stops early).
    func strtodValue(_ text: String) -> Double? {
        text.withCString { start -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            guard let end, end.pointee == 0 else { return nil }
            return value
        }
    }

    func expectSameAsStrtod(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let got = scan(text)
        let want = strtodValue(text)
        #expect(got != nil, "\(text) should be a number", sourceLocation: sourceLocation)
        if let got, let want {
            #expect(
                got.bitPattern == want.bitPattern, "\(text): \(got) vs strtod \(want)", sourceLocation: sourceLocation)
        }
    }

    static let numbers = [
        "0", "-0", "+0", "1", "-1.5", "2e-3", ".5", "+3", "5.", "5.e3", "-.5E+2", " 7 ", "\t-8\t", "  1e5",
        "0.1", "0.2", "0.3", "1e22", "1e23", "-1e23", "9007199254740992", "9007199254740993", "9007199254740995",
        "18014398509481985", "123456789012345678", "1234567890123456789", "12345678901234567890",
        "1.7976931348623157e308", "2.2250738585072014e-308", "2.2250738585072011e-308", "4.9e-324", "5e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "0e999999", "0.000000000000000000000001",
        "3.141592653589793238462643383279502884197", "0.1000000000000000055511151231257827021181583404541015625",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126", "100000000000000000000000", "1e-22", "1e-23",
        "4503599627370496.5", "4503599627370497.5", "000000000000000000000000001", "1.5e0000000000000000000001",
        "7e-10", "123.456e-7", "-9.999999999999999e22", "8.98846567431158e307", "1e308", "1e-307",
    ]

    @Test(arguments: numbers)
    func matchesStrtod(_ text: String) {
        expectSameAsStrtod(text)
    }

    static let notNumbers = [
        "", " ", "nan", "NaN", "inf", "-inf", "Infinity", "0x10", "0x1p3", "1e", "1e+", "e5", ".", "-", "+", "--1",
        "1.2.3", "1,5", "abc", "1 2", "1e5x", "1_000", "١", "1e5.5", "+-1", "0b1", "1d5", ".e5", "- 1",
    ]

    @Test(arguments: notNumbers)
    func rejectsWhatIsNotADecimalNumber(_ text: String) {
        #expect(scan(text) == nil)
    }

    @Test func overflowIsOutOfRangeNotInfinity() throws {
        for text in ["1e400", "-1e309", "1.8e308", "999999999999999999999e300"] {
            var bytes = Array(text.utf8)
            bytes.append(0)
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                guard case .outOfRange = scanner.scan(base) else {
                    Issue.record("\(text) should be out of range")
                    return
                }
            }
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        #expect(try #require(scan("-0.0")).sign == .minus)
        #expect(try #require(scan("-0e5")).sign == .minus)
    }

    /// Random Doubles printed as people and programs print them: %.17g, %.6f, %e, shortest.
    @Test func randomDoublesInEveryPrintedForm() {
        var generator = SplitMix64(seed: 0x5eed)
        for _ in 0..<20_000 {
            let magnitude = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let scaled = Double(Int64(bitPattern: generator.next()) % 2_000_000) / 1000
            for value in [magnitude, -magnitude, scaled] {
                for format in ["%.17g", "%.15g", "%.6f", "%.3e", "%.20e", "%g"] {
                    let text = String(format: format, value)
                    if text.count < 400 { expectSameAsStrtod(text) }
                }
                expectSameAsStrtod("\(value)")
            }
        }
    }

    /// Random digit strings and exponents, around the fast path's limits (2^53, 19 digits,
    /// |e| <= 22) where an inexact shortcut would show.
    @Test func randomDigitStringsAroundTheFastPathLimits() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<100_000 {
            let digitCount = Int(generator.next() % 25) + 1
            var digits = ""
            for _ in 0..<digitCount { digits.append(Character(String(generator.next() % 10))) }
            let pointAt = Int(generator.next() % UInt64(digitCount + 1))
            var text = String(digits.prefix(pointAt)) + "." + String(digits.dropFirst(pointAt))
            if text == "." { text = "0" }
            let exponent = Int(generator.next() % 61) - 30
            if generator.next() % 2 == 0 { text += "e\(exponent)" }
            if generator.next() % 3 == 0 { text = "-" + text }
            expectSameAsStrtod(text)
        }
    }

    /// Every entry of the power-of-five table, with mantissas of 1 to 19 digits, against
    /// strtod: the Eisel-Lemire tier must agree bit for bit wherever it answers.
    @Test func everyPowerOfTenWithRandomMantissas() {
        var generator = SplitMix64(seed: 2024)
        for exponent in -345...312 {
            for trial in 0..<40 {
                let digitCount = trial < 20 ? 19 : Int(generator.next() % 19) + 1
                var digits = String(generator.next() % 9 + 1)
                for _ in 1..<digitCount { digits.append(Character(String(generator.next() % 10))) }
                expectSameAsStrtodOrRange("\(digits)e\(exponent)")
            }
            // Halfway and near-halfway mantissas around 2^53 and 2^54.
            for mantissa in [9_007_199_254_740_993, 18_014_398_509_481_986, 18_014_398_509_481_990] as [UInt64] {
                expectSameAsStrtodOrRange("\(mantissa)e\(exponent)")
            }
        }
    }

    /// What the records print reads back bit for bit: 300,000 random bit patterns and
    /// 100,000 feature-like values printed by SondeCore's `ShortestDecimal` and read by this
    /// scanner (printing and reading share one table of powers; see `PowersOfFive`).
    @Test func shortestDecimalsReadBackBitForBit() {
        var generator = SplitMix64(seed: 0x7ab1e)
        var values = (0..<300_000).map { _ in Double(bitPattern: generator.next()) }
        values += (0..<100_000).map { _ in
            Double(Int64(bitPattern: generator.next()) % 2_000_000_000) / Double(1 << (generator.next() % 40))
        }
        var text: [UInt8] = []
        var mismatches = 0
        for value in values where value.isFinite {
            text.removeAll(keepingCapacity: true)
            text.appendNumber(value)
            let count = text.count
            text.append(0)
            let read = text.withUnsafeBufferPointer { buffer -> Double? in
                guard let base = buffer.baseAddress, case .number(let number, let end) = scanner.scan(base),
                    end == base + count
                else { return nil }
                return number
            }
            if read?.bitPattern != value.bitPattern {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "\(String(decoding: text.dropLast(), as: UTF8.self)) read as \(String(describing: read))")
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Like `expectSameAsStrtod`, but a value strtod overflows must be out of range here.
    func expectSameAsStrtodOrRange(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let want = strtodValue(text) else {
            Issue.record("strtod rejects \(text)", sourceLocation: sourceLocation)
            return
        }
        if want.isInfinite {
            var bytes = Array(text.utf8)
            bytes.append(0)
            let outOfRange = bytes.withUnsafeBufferPointer { buffer -> Bool in
                guard let base = buffer.baseAddress, case .outOfRange = scanner.scan(base) else { return false }
                return true
            }
            #expect(outOfRange, "\(text)", sourceLocation: sourceLocation)
        } else {
            expectSameAsStrtod(text, sourceLocation: sourceLocation)
        }
    }
}
