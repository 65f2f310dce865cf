import Foundation
import SondeReport
import Testing
import _SondeTestSupport

/// The report's p5 and p95 against numpy.percentile (Tests/Fixtures/percentiles, written by
/// numpy), on columns like the ones whose sketched p95 fell below their min (issue 43).
@Suite struct FeatureSummaryTests {
    struct Case: Decodable {
        let values: [Double]
        let p5: Double
        let p95: Double
    }

    static let cases: [String: Case] = {
        let url = Fixtures.directory.appendingPathComponent("percentiles/cases.json")
        guard let data = try? Data(contentsOf: url),
            let cases = try? JSONDecoder().decode([String: Case].self, from: data)
        else { return [:] }
        return cases
    }()

    @Test func fixturesAreThere() {
        #expect(Self.cases.count == 7)
    }

    /// Within the exact budget: numpy's double, bit for bit.
    @Test func percentilesAreNumpys() {
        for (name, item) in Self.cases {
            var summary = FeatureSummary()
            for value in item.values { summary.add(value) }
            #expect(summary.percentilesAreExact, "\(name)")
            #expect(summary.p5.bitPattern == item.p5.bitPattern, "\(name): p5 \(summary.p5), numpy \(item.p5)")
            #expect(summary.p95.bitPattern == item.p95.bitPattern, "\(name): p95 \(summary.p95), numpy \(item.p95)")
        }
    }

    /// Past the budget the sketch answers: within its 0.5% of numpy's lower-rank value, and
    /// never outside [min, max] (the sketch alone put the clustered p95 below the min).
    @Test func estimatesStayWithinMinAndMax() {
        for (name, item) in Self.cases where item.values.count > 10 {
            var summary = FeatureSummary(exactCapacity: 10)
            for value in item.values { summary.add(value) }
            #expect(!summary.percentilesAreExact, "\(name)")
            let sorted = item.values.sorted()
            for (q, got) in [(0.05, summary.p5), (0.95, summary.p95)] {
                let lowerRank = sorted[Int((q * Double(sorted.count - 1)).rounded(.down))]
                #expect(got >= summary.minimum && got <= summary.maximum, "\(name) q=\(q): \(got)")
                #expect(abs(got - lowerRank) <= 0.005 * abs(lowerRank) * (1 + 1e-12), "\(name) q=\(q): \(got)")
            }
        }
    }

    /// NaN and infinities (a THD of a silent frame) are left out of the percentiles, as the
    /// sketch always did; an empty column reads 0.
    @Test func nonFiniteValuesAreLeftOut() {
        var summary = FeatureSummary()
        for value in [Double.nan, 1, 2, .infinity, 3] { summary.add(value) }
        #expect(summary.p5 == 1.1)
        #expect(summary.p95 == 2.9)
        #expect(FeatureSummary().p95 == 0)
    }
}
