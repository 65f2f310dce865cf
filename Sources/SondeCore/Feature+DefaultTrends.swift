extension Feature {
    /// What a view of a run draws over time when `--features` does not choose: `sonde
    /// report`'s trends, and a saved measurement's report. Defined here, once, so every
    /// front end (report, live page, saved measurements) starts from the same list.
    public static let defaultTrends: [Feature] = [
        .rms, .peak, .crestFactor, .kurtosis, .dominantFrequency, .spectralCentroid,
    ]
}
