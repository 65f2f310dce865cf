/// What sonde says about one output column, or one pattern of columns (`mel_1 .. mel_M`):
/// its name, unit, definition, reference implementation, what it is computed from and how
/// closely it matches that reference. Written once per column; `--help`, `docs/features.md`
/// and the reference tests' tolerances are read from these, so they cannot drift apart.
public struct FeatureDeclaration: Sendable {
    /// The column's name, or the shared prefix of a family of names.
    public enum Column: Sendable, Hashable {
        case name(String)
        /// Every column starting with `prefix`; `display` is how the docs write them.
        case pattern(prefix: String, display: String)
    }

    /// What the value is computed from: the extractor computes only what a request needs.
    public enum Input: Sendable, Hashable {
        /// The frame's place in the input (record keys), no samples.
        case position
        /// One pass over the unwindowed frame.
        case samples
        /// The frame's central moments (a second pass when the first one's center is off).
        case moments
        /// The spectrum of the Hann-windowed frame.
        case spectrum
        /// The spectrum and the same channel's previous frame's (spectral flux).
        case previousSpectrum
    }

    /// How a user gets the column.
    public enum Request: Sendable, Hashable {
        /// Written in every record.
        case always
        /// In the default set; `--features` chooses among these and orders them.
        case byDefault
        /// Optional: `--features NAME` adds it.
        case byName
        /// Written when the option is given (`--bands LO-HI`, `--mel M`).
        case byOption(String)
    }

    public var column: Column
    /// The unit, in words (`Hz`, `input unit²/Hz · Hz`, `dB re R`).
    public var unit: String
    /// The formula, in docs/features.md's notation.
    public var definition: String
    /// The independent implementation the reference tests compare with.
    public var reference: String
    public var input: Input
    public var request: Request
    public var tolerance: ToleranceClass

    public init(
        _ column: Column, unit: String, definition: String, reference: String, input: Input, request: Request,
        tolerance: ToleranceClass
    ) {
        self.column = column
        self.unit = unit
        self.definition = definition
        self.reference = reference
        self.input = input
        self.request = request
        self.tolerance = tolerance
    }

    /// The column name, or the pattern as the docs write it.
    public var name: String {
        switch column {
        case .name(let name): name
        case .pattern(_, let display): display
        }
    }

    /// Whether `name` is this column or one of this pattern's.
    public func matches(column name: String) -> Bool {
        switch column {
        case .name(let own): name == own
        case .pattern(let prefix, _): name.hasPrefix(prefix)
        }
    }
}
