import SondeCore
import SondeMeasurements
import SondeReport
import Testing

/// A saved measurement's means (what the measurement page and Main show) and a report's
/// statistics follow one rule (`UnmeasuredZero`): a `thd` or `snr_db` of 0 is "no
/// fundamental found" (docs/features.md section 5) and counts in neither; other columns'
/// zeros are values like any other.
@Suite struct UnmeasuredMeansTests {
    static let columns = ["rms", "thd", "snr_db", "mean"]

    /// Two channels, five windows: thd measured in 2 windows on x and none on y, snr_db in 3
    /// on x, the mean column 0 in some windows (a value, so counted).
    static let batch = RecordBatch(
        fileName: "", channelNames: ["x", "y"], columnCount: 4, firstFrame: 0, frameCount: 5, hop: 512,
        clock: .seconds(sampleRate: 25600, offset: 0),
        values: [
            1, 0, 20, 0, /**/ 2, 0, 0, 1,
            2, 0.5, 0, 0, /**/ 2, 0, 0, 1,
            3, 0, 30, 2, /**/ 2, 0, 0, 1,
            4, 1.5, 0, 0, /**/ 2, 0, 0, 1,
            5, 0, 40, 3, /**/ 2, 0, 0, 1,
        ])

    @Test func theSavedMeansLeaveOutWindowsWithNoFundamental() throws {
        let summary = try MeasurementSummary.checking([Self.batch], channelNames: ["x", "y"], columns: Self.columns)
            .summary
        #expect(summary.channels[0].means == [3, 1, 30, 1])
        // Measured in no window: 0, which the pages read as "not measured".
        #expect(summary.channels[1].means == [2, 0, 0, 1])
        #expect(summary.frameCount == 5)
    }

    @Test func theReportAndTheSavedMeansAgree() throws {
        let summary = try MeasurementSummary.checking([Self.batch], channelNames: ["x", "y"], columns: Self.columns)
            .summary
        var statistics = RecordStatistics(channelCount: 2, columns: Self.columns, trended: [])
        statistics.add(Self.batch)
        for channel in 0..<2 {
            let report = statistics.summary(channel: channel)
            #expect(report.map(\.column) == Self.columns)
            #expect(report.map(\.summary.mean) == summary.channels[channel].means, "channel \(channel)")
        }
        for column in Self.columns {
            #expect(UnmeasuredZero.applies(to: column) == (FeatureLabel.unmeasuredReason(column) != nil))
        }
    }
}
