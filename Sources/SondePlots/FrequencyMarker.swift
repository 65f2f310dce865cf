/// A labelled vertical line on a spectrum: a bearing defect frequency or one of its harmonics
/// on an envelope spectrum, where the reader checks whether a line of the spectrum sits on it.
public struct FrequencyMarker: Sendable, Equatable {
    /// Hz.
    public var frequency: Double
    /// Written beside the line's top ("BPFO", "2×BPFO").
    public var label: String
    /// An SVG colour.
    public var colour: String
    /// Drawn dotted: a harmonic rather than a fundamental.
    public var isHarmonic: Bool

    public init(frequency: Double, label: String, colour: String, isHarmonic: Bool = false) {
        self.frequency = frequency
        self.label = label
        self.colour = colour
        self.isHarmonic = isHarmonic
    }
}
