public import SondeCore
public import SondePlots

/// What a report keeps of one input's records, per channel: every value column's
/// `FeatureSummary` and the trended columns' `TrendEnvelope`s. Bounded whatever the
/// number of records; shared by `sonde report` and the report of a saved measurement.
public struct RecordStatistics: Sendable {
    public let columns: [String]
    /// Indices into `columns` of the trended ones, in plot order.
    private let trended: [Int]
    /// Per column, whether its 0 means "not measured" (`FeatureLabel.unmeasuredReason`).
    private let zeroIsUnmeasured: [Bool]
    private var summaries: [[FeatureSummary]]
    private var trends: [[TrendEnvelope]]

    /// - Parameter trended: the columns drawn over time; names not in `columns` are skipped.
    public init(channelCount: Int, columns: [String], trended: [String]) {
        self.columns = columns
        self.trended = trended.compactMap { columns.firstIndex(of: $0) }
        zeroIsUnmeasured = columns.map { FeatureLabel.unmeasuredReason($0) != nil }
        let exactCapacity = Swift.max(
            Self.minimumExactValues, Self.exactValueBudget / Swift.max(1, channelCount * columns.count))
        summaries = Array(
            repeating: Array(repeating: FeatureSummary(exactCapacity: exactCapacity), count: columns.count),
            count: channelCount)
        trends = Array(
            repeating: Array(repeating: TrendEnvelope(capacity: 600), count: self.trended.count), count: channelCount)
    }

    /// Values kept for exact percentiles over all columns and channels (8 MiB), but at
    /// least `minimumExactValues` a column: a long input's percentiles come from sketches.
    static let exactValueBudget = 1 << 20
    static let minimumExactValues = 4096

    /// The report's line on how p5 and p95 were found for this input.
    public var percentileDetail: (label: String, value: String) {
        let exact = summaries.allSatisfy { $0.allSatisfy(\.percentilesAreExact) }
        return (
            "Percentiles",
            exact
                ? "p5 and p95 exact (numpy.percentile, linear)"
                : "p5 and p95 estimated (too many windows to keep): within 0.5% of the value at numpy.percentile's lower rank, never outside min-max"
        )
    }

    /// Adds a batch's records (frame by frame, channels interleaved, as the pipeline emits them).
    public mutating func add(_ batch: RecordBatch) {
        let channelCount = batch.channelNames.count, columnCount = batch.columnCount
        precondition(channelCount == summaries.count && columnCount == columns.count, "a batch of another shape")
        batch.values.withUnsafeBufferPointer { values in
            for frame in 0..<batch.frameCount {
                for channel in 0..<channelCount {
                    let base = (frame * channelCount + channel) * columnCount
                    for column in 0..<columnCount {
                        let value = values[base + column]
                        if value == 0 && zeroIsUnmeasured[column] {
                            summaries[channel][column].addUnmeasured()
                        } else {
                            summaries[channel][column].add(value)
                        }
                    }
                    for (slot, column) in trended.enumerated() { trends[channel][slot].append(values[base + column]) }
                }
            }
        }
    }

    /// Channel `channel`'s summary table rows, in column order.
    public func summary(channel: Int) -> [(column: String, summary: FeatureSummary)] {
        columns.enumerated().map { ($0.element, summaries[channel][$0.offset]) }
    }

    /// Channel `channel`'s trend figures, titled by column (their `--figures` file names and
    /// labels), the unit on the value axis; frame f at `startTime + f * secondsPerFrame` seconds.
    public func trendPlots(channel: Int, secondsPerFrame: Double, startTime: Double) -> [TrendPlot] {
        trended.enumerated().map { slot, column in
            TrendPlot(
                title: columns[column], unit: FeatureLabel.unit(columns[column]), envelope: trends[channel][slot],
                secondsPerFrame: secondsPerFrame,
                startTime: startTime)
        }
    }
}
