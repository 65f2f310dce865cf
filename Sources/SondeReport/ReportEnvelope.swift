/// One channel's envelope spectrum for the report, in plain numbers: the command computes it
/// (it reads the input whole and knows the bearing), the report draws it as an
/// `EnvelopeSpectrumPlot`.
public struct ReportEnvelope: Sendable {
    public var title: String
    /// Bin frequencies, Hz, ascending.
    public var frequencies: [Double]
    /// The squared-envelope spectrum per bin.
    public var density: [Double]
    /// Name and frequency (Hz) of each defect line ("BPFO", 107.4).
    public var defects: [(name: String, frequency: Double)]

    public init(title: String, frequencies: [Double], density: [Double], defects: [(name: String, frequency: Double)]) {
        self.title = title
        self.frequencies = frequencies
        self.density = density
        self.defects = defects
    }
}
