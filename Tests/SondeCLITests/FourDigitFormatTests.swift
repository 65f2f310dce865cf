import CSystemCalls
import Foundation
import Testing

/// `sonde_format_4g` writes what printf's `%.4g` writes, byte for byte: its digits come from
/// scaling, so this holds it to glibc's exact printf on random bit patterns, on numbers a
/// hair from a rounding tie, on exact ties (printf rounds them to even) and on the edges
/// where it hands over to printf.
@Suite struct FourDigitFormatTests {
    private func printf(_ value: Double) -> String {
        withVaList([value]) { arguments in
            var buffer = [CChar](repeating: 0, count: 64)
            let length = vsnprintf(&buffer, 64, "%.4g", arguments)
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    private func fast(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        let length = sonde_format_4g(&buffer, 32, value)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func matchesPrintfOnEdges() {
        let edges: [Double] = [
            1, 10, 100, 1000, 1e4, 9999.5, 9999.4999, 9999.5001, 0.00012345, 0.0001, 9.9995e-5, 1e-5, 123_456, 99995,
            999_950, 0.5, 1.5, 2.5, 1234.5, 1235.5, 12345, 0.10005, 1e24, 9.9995e24, 1e25, 1e-19, 1.23456e-19,
            .leastNonzeroMagnitude,
            .leastNormalMagnitude, .greatestFiniteMagnitude, 0, -0.0, .infinity, -.infinity, .nan, 921.2, -0.7071,
        ]
        for value in edges {
            #expect(fast(value) == printf(value), "\(value)")
            #expect(fast(-value) == printf(-value), "\(-value)")
        }
    }

    @Test func matchesPrintfOnRandomNumbers() {
        var generator = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for round in 0..<400_000 {
            let value: Double
            switch round % 4 {
            case 0: value = Double(bitPattern: generator.next())
            case 1:
                value =
                    Double(Int.random(in: 0..<2_000_000, using: &generator))
                    / Double(Int.random(in: 1...1000, using: &generator))
                    * pow(10, Double(Int.random(in: -25...25, using: &generator)))
            case 2:
                // Halfway between two four-digit numbers in decimal, rarely so in binary.
                value =
                    (Double(Int.random(in: 1000..<10000, using: &generator)) + 0.5)
                    * pow(10, Double(Int.random(in: -23...20, using: &generator)))
            default:
                // Exactly representable numbers, ties among them.
                value = Double(Int.random(in: 0..<(1 << 20), using: &generator)) / Double(1 << (round % 24))
            }
            let signed = round % 3 == 0 ? -value : value
            if fast(signed) != printf(signed) { mismatches.append("\(signed): \(fast(signed)) vs \(printf(signed))") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
