/// Numbers appended to an output buffer in the one spelling sonde writes them everywhere
/// (records, JSON documents): docs/features.md section 6.
extension Array where Element == UInt8 {
    /// Shortest text that reads back to the same Double, spelled as Swift's `description`
    /// spells it (`ShortestDecimal`). Non-finite values never reach here: every feature
    /// defines its degenerate value.
    package mutating func appendNumber(_ value: Double) {
        assert(value.isFinite, "features must never produce NaN or infinity")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDecimal.textScratchCount) { text in
            let count = ShortestDecimal.write(value, into: UnsafeMutableRawBufferPointer(text))
            append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
        }
    }

    /// Each of `values` after a `separator`, spelled as `appendNumber` spells it. The text
    /// is staged on the stack, 24 numbers at a time, and appended in one piece: appending
    /// each number on its own cost a `memmove` call apiece, 2% of a whole run (perf).
    package mutating func appendNumbers(_ values: UnsafeBufferPointer<Double>, separatedBy separator: UInt8) {
        let numbersPerBlock = 24
        let bytesPerNumber = 25  // the separator and at most 24 bytes of text
        let capacity = numbersPerBlock * bytesPerNumber + ShortestDecimal.textScratchCount
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { block in
            let text = UnsafeMutableRawBufferPointer(block)
            var first = 0
            while first < values.count {
                let end = Swift.min(first + numbersPerBlock, values.count)
                var used = 0
                for value in values[first..<end] {
                    text[used] = separator
                    used += 1
                    used += ShortestDecimal.write(value, into: UnsafeMutableRawBufferPointer(rebasing: text[used...]))
                }
                append(contentsOf: UnsafeBufferPointer(rebasing: block[..<used]))
                first = end
            }
        }
    }

    /// Decimal digits written in place, without an intermediate String.
    package mutating func appendInteger(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var count = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        var index = self.count + count - 1
        append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        repeat {
            self[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    package mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}
