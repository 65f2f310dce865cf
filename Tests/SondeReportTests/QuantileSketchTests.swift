import Foundation
import SondeReport
import Testing
import _SondeTestSupport

/// The report's p5 and p95 keep their stated bound: within 0.5% of the sorted value at
/// numpy.percentile's lower rank, `floor(q (n - 1))`.
@Suite struct QuantileSketchTests {
    static let distributions: [(String, @Sendable (inout SplitMix64) -> Double)] = [
        ("uniform 0-1", { Double.random(in: 0..<1, using: &$0) }),
        ("positive over nine decades", { pow(10, 9 * Double.random(in: 0..<1, using: &$0) - 6) }),
        (
            "signed, zeros in it",
            { r in
                let u = Double.random(in: 0..<1, using: &r);
                return u < 0.1 ? 0 : (u < 0.5 ? -1 : 1) * pow(10, 4 * Double.random(in: 0..<1, using: &r) - 2)
            }
        ),
        ("negative dB levels", { -20 - 80 * Double.random(in: 0..<1, using: &$0) }),
        ("offset 9.81 + small vibration", { 9.81 + 1e-4 * (Double.random(in: 0..<1, using: &$0) - 0.5) }),
    ]

    @Test(arguments: 0..<5)
    func percentilesWithinBound(_ which: Int) {
        let (name, draw) = Self.distributions[which]
        var random = SplitMix64(seed: UInt64(which + 1))
        for count in [1, 2, 7, 100, 20_000] {
            var sketch = QuantileSketch()
            var values: [Double] = []
            for _ in 0..<count {
                let v = draw(&random)
                values.append(v)
                sketch.add(v)
            }
            values.sort()
            for q in [0.0, 0.05, 0.5, 0.95, 1.0] {
                let exact = values[Int((q * Double(count - 1)).rounded(.down))]
                let got = sketch.quantile(q) ?? .nan
                #expect(
                    abs(got - exact) <= 0.005 * abs(exact) * (1 + 1e-12),
                    "\(name), n=\(count), q=\(q): got \(got), want \(exact)")
            }
        }
    }

    /// Memory stays bounded: values over 600 decades use at most the bucket limit, and the
    /// top 35 decades (4096 buckets of 1% each) keep the bound: p95 lies 30 below the top.
    @Test func bucketsAreBounded() {
        var sketch = QuantileSketch(accuracy: 0.01, maximumBuckets: 4096)
        var values: [Double] = []
        var random = SplitMix64(seed: 9)
        for _ in 0..<50_000 {
            let v = pow(10, 600 * Double.random(in: 0..<1, using: &random) - 300)
            values.append(v)
            sketch.add(v)
        }
        values.sort()
        let exact = values[Int((0.95 * Double(values.count - 1)).rounded(.down))]
        #expect(sketch.bucketCount <= 4096)
        #expect(abs((sketch.quantile(0.95) ?? 0) - exact) <= 0.01 * exact * (1 + 1e-12))
    }
}
