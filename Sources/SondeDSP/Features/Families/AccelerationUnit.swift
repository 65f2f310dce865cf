/// The unit of an accelerometer's samples (`--input-unit`): accelerometers record in g as
/// often as in m/s², and the velocity features must read in m/s either way (issue 47, item 5).
public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable {
    case g
    case metresPerSecondSquared = "m/s2"

    /// m/s² per input unit: standard gravity, 9.80665 m/s² (ISO 80000-3), for g.
    public var metresPerSecondSquared: Double {
        switch self {
        case .g: 9.806_65
        case .metresPerSecondSquared: 1
        }
    }
}
