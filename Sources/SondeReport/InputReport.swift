public import SondePlots

/// What a report shows for one input (or one saved measurement): its details, and per
/// channel its figures and feature summary. Figures that cannot be made are nil (a saved
/// measurement keeps records, not samples, so it has no spectra).
public struct InputReport: Sendable {
    public struct Channel: Sendable {
        public var name: String
        public var spectrogram: SpectrogramPlot?
        public var spectrum: SpectrumPlot?
        /// The bearing's envelope spectrum with its defect lines (`report --shaft-speed --bearing`).
        public var envelope: EnvelopeSpectrumPlot?
        /// The defect levels and verdict read off that envelope spectrum, shown under it.
        public var bearing: ReportEnvelope.Diagnosis?
        public var trends: [TrendPlot]
        /// Per value column, in record order.
        public var summary: [(column: String, summary: FeatureSummary)]

        public init(
            name: String, spectrogram: SpectrogramPlot? = nil, spectrum: SpectrumPlot? = nil, trends: [TrendPlot],
            summary: [(column: String, summary: FeatureSummary)]
        ) {
            self.name = name
            self.spectrogram = spectrogram
            self.spectrum = spectrum
            self.envelope = nil
            self.bearing = nil
            self.trends = trends
            self.summary = summary
        }
    }

    public var title: String
    /// Label and value pairs shown under the title (rate, duration, device, comment...).
    public var details: [(label: String, value: String)]
    public var channels: [Channel]

    public init(title: String, details: [(label: String, value: String)], channels: [Channel]) {
        self.title = title
        self.details = details
        self.channels = channels
    }
}
