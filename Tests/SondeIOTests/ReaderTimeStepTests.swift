import Testing
import _SondeTestSupport

@testable import SondeIO

/// The median of a time column's steps: the dictionary count and the radix selection
/// must both give numpy's `np.median` (mean of the two middle values for an even count).
@Suite struct ReaderTimeStepTests {
    static func numpyMedian(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static let cases: [[Double]] = [
        [1], [1, 2], [2, 1, 3], [0.25, 0.25, 0.25, 0.5], [-1, -2, 5, 7], [0, -0.0, 0, 1], [3, 3, 3, 3, 3, 3],
        [1e-300, 1e300, -1e300, .leastNonzeroMagnitude, 0.5],
        [0.001, 0.0010000000000000002, 0.0009999999999999998, 0.001],
    ]

    @Test(arguments: cases)
    func dictionaryAndRadixSelectionAgreeWithNumpy(_ steps: [Double]) throws {
        let counter = TimeStepCounter()
        for step in steps { counter.add(step) }
        let expected = Self.numpyMedian(steps)
        #expect(counter.median() == expected)
        let selected = TimeStepCounter.select(count: steps.count) { visit in steps.forEach(visit) }
        #expect(selected == expected)
    }

    @Test func randomStepsWithManyDuplicatesAndSigns() throws {
        var generator = SplitMix64(seed: 11)
        for trial in 0..<300 {
            let count = Int(generator.next() % 400) + 1
            let pool = (0..<Int(generator.next() % 20) + 1).map { _ in
                Double(bitPattern: generator.next() & 0x3FFF_FFFF_FFFF_FFFF) * (generator.next() % 3 == 0 ? -1 : 1)
            }
            let steps = (0..<count).map { _ in
                trial % 2 == 0
                    ? pool[Int(generator.next() % UInt64(pool.count))]
                    : Double(Int64(bitPattern: generator.next()) % 1000) / 7
            }
            let expected = Self.numpyMedian(steps)
            let limited = TimeStepCounter(distinctLimit: 3)
            let unlimited = TimeStepCounter()
            for step in steps {
                limited.add(step)
                unlimited.add(step)
            }
            #expect(unlimited.median() == expected)
            if let median = limited.median() {
                #expect(median == expected)
                #expect(!limited.overflowed)
            } else {
                #expect(limited.overflowed)
                #expect(TimeStepCounter.select(count: steps.count) { visit in steps.forEach(visit) } == expected)
            }
        }
    }

    @Test func orderedKeysSortLikeDoubles() {
        let values: [Double] = [
            -.infinity, -1e300, -1, -Double.leastNonzeroMagnitude, -0.0, 0, .leastNonzeroMagnitude, 1, 1e300, .infinity,
        ]
        let keys = values.map(TimeStepCounter.orderedKey)
        #expect(keys == keys.sorted())
        #expect(
            values.allSatisfy {
                TimeStepCounter.value(ofKey: TimeStepCounter.orderedKey($0)).bitPattern == $0.bitPattern
            })
    }
}
