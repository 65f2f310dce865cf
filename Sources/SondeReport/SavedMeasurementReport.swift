public import SondeCore
public import SondeMeasurements

/// The page `sonde measurements report` writes and the web's Saved measurement screen
/// serves: a saved measurement's details, feature trends and summary table, from its
/// per-window values (a saved measurement keeps no samples, so no spectrum).
public enum SavedMeasurementReport {
    /// The whole HTML document.
    /// - Parameters:
    ///   - trends: columns to draw over time, where the measurement has them (band powers
    ///     always are); the caller checks a list the user typed.
    ///   - madeBy: the program and version named in the page.
    ///   - back: the app's link back to the measurement's page; nil for a file.
    public static func html(
        measurement saved: SavedMeasurement, batches: [RecordBatch], trends: [String], madeBy: String,
        back: (href: String, label: String)? = nil
    ) -> String {
        let trended =
            saved.columns.filter { trends.contains($0) } + saved.columns.filter { $0.hasPrefix("band_power:") }
        var statistics = RecordStatistics(
            channelCount: saved.channelNames.count, columns: saved.columns, trended: trended)
        for batch in batches { statistics.add(batch) }
        let (secondsPerFrame, startTime, clockText) = timeAxis(saved)
        let channels = saved.channelNames.enumerated().map { channel, name in
            InputReport.Channel(
                name: name,
                trends: statistics.trendPlots(channel: channel, secondsPerFrame: secondsPerFrame, startTime: startTime),
                summary: statistics.summary(channel: channel))
        }
        let recorded = UTCTimestamp.rfc3339(epochSeconds: saved.recordedAt)
        let report = InputReport(
            title: "Measurement \(saved.id)",
            details: [
                ("Recorded", recorded), ("Device", saved.deviceID),
                ("Comment", saved.comment.isEmpty ? "(none)" : saved.comment),
                ("Channels", saved.channelNames.joined(separator: ", ")), ("Windows", "\(saved.frameCount)"),
                ("Time axis", clockText), statistics.percentileDetail,
            ],
            channels: channels)
        let settings = SavedSettingsRows.rows(saved.settings), columns = saved.columns.joined(separator: ", ")
        return ReportHTML.head(
            title: "sonde measurement \(saved.id): \(saved.deviceID), \(recorded)", madeBy: madeBy,
            settings: settings + (settings.contains { $0.label == "Columns" } ? [] : [("Columns", columns)]),
            back: back
        ) + ReportHTML.section(report, anchor: "measurement-\(saved.id)") + ReportHTML.tail
    }

    /// Seconds per window and the time of window 0 for the trends, and how to read them.
    private static func timeAxis(_ saved: SavedMeasurement) -> (Double, Double, String) {
        switch (saved.clock, saved.hop) {
        case (.seconds(let rate, let offset)?, let hop?):
            return (Double(hop) / rate, offset, "seconds from the start of the recording")
        case (.wallClock(let rate, let epoch)?, let hop?):
            return (
                Double(hop) / rate, 0,
                "seconds after the first sample, \(UTCTimestamp.rfc3339(epochSeconds: epoch))"
            )
        default:
            return (1, 0, "window number (no window completed)")
        }
    }
}
