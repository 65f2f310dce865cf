import ArgumentParser
import SondeCore
import SondeDSP
import SondeIO
import SondeMeasurements
import SondeReport

extension MeasurementsCommand {
    struct Report: ServiceCommand {
        static let configuration = CommandConfiguration(
            abstract: "One HTML page of a saved measurement: its details, feature trends and summary table.",
            discussion: """
                The page `sonde report` makes, from the saved per-window values: device, time, \
                comment and settings, then per channel the trends (rms, peak, crest_factor, \
                kurtosis, dominant_frequency, spectral_centroid and band powers among the saved \
                columns, or --features) and every column's mean, min, max, p5 and p95. A saved \
                measurement keeps values, not samples, so there is no spectrogram or spectrum.

                Examples:
                  sonde measurements report 3 -o pump-run.html
                  sonde measurements report 3 --features rms,kurtosis -o pump-run.html
                """
        )

        @OptionGroup var measurement: MeasurementIDArgument

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("The HTML file to write (atomically).", valueName: "OUT"))
        var output: String

        @Option(
            help: ArgumentHelp(
                "Saved columns to draw over time, comma-separated (default as sonde report).", valueName: "LIST"))
        var features: String?

        func validate() throws {
            if output == "-" { throw ValidationError("-o: a report is a file; give its name (run.html)") }
        }

        func run(with services: Services) async throws {
            let id = try MeasurementIDText.require(measurement.id)
            let (saved, batches) = try await services.measurements.records(
                id: id, for: services.session.requireAccount())
            let chosen = features.map { $0.split(separator: ",").map(String.init) } ?? ReportCommand.defaultTrends
            if let unknown = chosen.first(where: { !saved.columns.contains($0) }), features != nil {
                throw SondeError(
                    .invalidArgument,
                    "--features: measurement \(id) has no column '\(unknown)'; it has \(saved.columns.joined(separator: ","))"
                )
            }
            let trended =
                saved.columns.filter { chosen.contains($0) } + saved.columns.filter { $0.hasPrefix("band_power:") }
            var statistics = RecordStatistics(
                channelCount: saved.channelNames.count, columns: saved.columns, trended: trended)
            for batch in batches { statistics.add(batch) }
            let (secondsPerFrame, startTime, clockText) = Self.timeAxis(saved)
            let channels = saved.channelNames.enumerated().map { channel, name in
                InputReport.Channel(
                    name: name,
                    trends: statistics.trendPlots(
                        channel: channel, secondsPerFrame: secondsPerFrame, startTime: startTime),
                    summary: statistics.summary(channel: channel))
            }
            let recorded = UTCTimestamp.rfc3339(epochSeconds: saved.recordedAt)
            let report = InputReport(
                title: "Measurement \(id)",
                details: [
                    ("Recorded", recorded), ("Device", saved.deviceID),
                    ("Comment", saved.comment.isEmpty ? "(none)" : saved.comment),
                    ("Channels", saved.channelNames.joined(separator: ", ")), ("Windows", "\(saved.frameCount)"),
                    ("Time axis", clockText),
                ],
                channels: channels)
            let destination = try OutputFile(atomicallyReplacing: output)
            do {
                try destination.write(
                    Array(
                        ReportHTML.head(
                            title: "sonde measurement \(id): \(saved.deviceID), \(recorded)",
                            madeBy:
                                "sonde \(SondeVersion.number) (commit \(BuildTarget.commit), \(BuildTarget.name) build)",
                            settings: [
                                ("Saved settings", saved.settings), ("Columns", saved.columns.joined(separator: ", ")),
                            ]
                        ).utf8))
                try destination.write(Array(ReportHTML.section(report, anchor: "measurement-\(id)").utf8))
                try destination.write(Array(ReportHTML.tail.utf8))
                try destination.commit()
            } catch {
                destination.abandon()
                throw error
            }
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
}
