/// IEC 61260-1 base-10 fractional-octave band sets (`--bands octave`, `--bands third-octave`).
public enum OctaveBandSet: String, CaseIterable, Sendable, Hashable {
    case octave
    case thirdOctave = "third-octave"

    /// The column prefix: `octave:1000`, `third_octave:31.5`.
    public var columnPrefix: String { self == .octave ? "octave" : "third_octave" }
}
