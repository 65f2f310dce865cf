import Testing
import _SondeTestSupport

@testable import SondeIO

/// Records print numbers through `Double.write(to:)` into the output buffer; FEATURES.md
/// asks for the shortest text that reads back to the same Double, which is exactly
/// `description`. This pins the two together, and the round trip, over every kind of value.
@Suite("Number formatting")
struct NumberFormattingTests {
    @Test func appendedNumbersAreTheShortestRoundTrip() {
        var generator = SplitMix64(seed: 17)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e-300, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, Double.greatestFiniteMagnitude, 123456789012345680, 1e16, 1e-5, 0.00999999999999801]
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: generator.next()))
        }
        var buffer: [UInt8] = []
        for value in values where value.isFinite {
            buffer.removeAll(keepingCapacity: true)
            buffer.appendNumber(value)
            let text = String(decoding: buffer, as: UTF8.self)
            #expect(text == value.description)
            #expect(Double(text) == value)
        }
    }
}
