import ArgumentParser
import SondeKit

extension MeasurementsCommand {
    struct Report: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
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

        @OptionGroup(title: "Store") var store: StoreOptions

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

        func run(with services: LocalServices) async throws {
            try await SavedReportPage.write(
                MeasurementIDText.require(measurement.id),
                features: features.map { $0.split(separator: ",").map(String.init) },
                from: services.measurements, for: services.session.requireAccount(), to: output)
        }
    }
}
