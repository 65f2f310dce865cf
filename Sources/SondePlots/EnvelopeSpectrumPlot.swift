/// A squared-envelope spectrum with a bearing's defect frequencies and their harmonics marked,
/// on a frequency axis cut to where they lie (issue 47, item 6): the whole envelope band on a
/// linear axis squeezes a 100-170 Hz defect against the left edge.
public struct EnvelopeSpectrumPlot: Sendable {
    /// The spectrum, its bins cut to `frequencyLimit`; its own harmonic marks off.
    public let plot: SpectrumPlot
    /// Each defect's fundamental and harmonics, fundamentals first.
    public let markers: [FrequencyMarker]

    /// Line colours, one per defect in the order given.
    static let colours = ["#d62728", "#9467bd", "#2ca02c", "#8c564b", "#e377c2"]

    /// - Parameters:
    ///   - frequencies, density: the envelope spectrum's bins (Hz, ascending) and values.
    ///   - defects: name and frequency in Hz of each defect line ("BPFO", 107.4).
    ///   - harmonics: multiples marked per defect, 1 (the fundamental only) or more.
    ///   - unit: the density's unit, for the axis title.
    public init(
        title: String, frequencies: [Double], density: [Double], defects: [(name: String, frequency: Double)],
        harmonics: Int = 3, unit: String = "units⁴/Hz", width: Double = 660, height: Double = 320
    ) {
        precondition(frequencies.count == density.count)
        let count = Swift.max(1, harmonics)
        let limit = Self.frequencyLimit(
            last: frequencies.last ?? 0, defects: defects.map(\.frequency), harmonics: count)
        let kept = frequencies.prefix { $0 <= limit }.count
        var plot = SpectrumPlot(
            title: title, frequencies: Array(frequencies.prefix(kept)), power: Array(density.prefix(kept)), unit: unit,
            width: width, height: height)
        plot.highestHarmonic = 1
        self.plot = plot
        var fundamentals: [FrequencyMarker] = []
        var multiples: [FrequencyMarker] = []
        for (index, defect) in defects.enumerated() {
            let colour = Self.colours[index % Self.colours.count]
            fundamentals.append(FrequencyMarker(frequency: defect.frequency, label: defect.name, colour: colour))
            for h in stride(from: 2, through: count, by: 1) {
                multiples.append(
                    FrequencyMarker(
                        frequency: Double(h) * defect.frequency, label: "\(h)×\(defect.name)", colour: colour,
                        isHarmonic: true))
            }
        }
        markers = fundamentals + multiples
    }

    /// The axis's end, Hz: half a fundamental past the highest harmonic marked, so the highest
    /// line has room on its right; the spectrum's last bin when that is nearer, or when there
    /// is no defect.
    public static func frequencyLimit(last: Double, defects: [Double], harmonics: Int) -> Double {
        guard let highest = defects.filter({ $0 > 0 && $0.isFinite }).max() else { return last }
        return Swift.min(last, (Double(harmonics) + 0.5) * highest)
    }

    public func svg() -> String { plot.svg(markers: markers) }
}
