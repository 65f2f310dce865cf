/// One channel's envelope spectrum for the report, in plain numbers: the command computes it
/// (it reads the input whole and knows the bearing), the report draws it as an
/// `EnvelopeSpectrumPlot`, with the defect levels and the verdict under it.
public struct ReportEnvelope: Sendable {
    /// One defect's row of the table under the figure, worded by the command from the
    /// diagnosis `sonde diagnose` makes of the same spectrum.
    public struct DefectRow: Sendable, Equatable {
        /// "BPFO".
        public var name: String
        /// Hz.
        public var frequency: Double
        /// The fundamental's level, "12.3 dB" or "not measurable (...)".
        public var level: String
        /// Harmonics at or above the threshold, "2/3".
        public var harmonicsFound: String
        /// Every harmonic's level, "12.3, 8.1, not measurable" (dB).
        public var harmonicLevels: String

        public init(name: String, frequency: Double, level: String, harmonicsFound: String, harmonicLevels: String) {
            self.name = name
            self.frequency = frequency
            self.level = level
            self.harmonicsFound = harmonicsFound
            self.harmonicLevels = harmonicLevels
        }
    }

    /// The table under the figure: each defect's row and the verdict with its threshold.
    public struct Diagnosis: Sendable, Equatable {
        public var rows: [DefectRow]
        /// "outer race fault likely (BPFO 23.9 dB ≥ 10 dB)", "no bearing defect above 10 dB".
        public var verdict: String

        public init(rows: [DefectRow], verdict: String) {
            self.rows = rows
            self.verdict = verdict
        }
    }

    public var title: String
    /// Bin frequencies, Hz, ascending.
    public var frequencies: [Double]
    /// The squared-envelope spectrum per bin.
    public var density: [Double]
    /// Name and frequency (Hz) of each defect line ("BPFO", 107.4).
    public var defects: [(name: String, frequency: Double)]
    /// The levels read off this spectrum and the verdict; nil for a figure alone.
    public var diagnosis: Diagnosis?

    public init(
        title: String, frequencies: [Double], density: [Double], defects: [(name: String, frequency: Double)],
        diagnosis: Diagnosis? = nil
    ) {
        self.title = title
        self.frequencies = frequencies
        self.density = density
        self.defects = defects
        self.diagnosis = diagnosis
    }
}
