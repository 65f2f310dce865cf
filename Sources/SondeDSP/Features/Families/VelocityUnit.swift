/// The unit `velocity_rms` is written in (`--velocity-unit`): m/s, or mm/s as ISO 20816 states
/// its zone limits.
public enum VelocityUnit: String, Sendable, Hashable, CaseIterable {
    case metresPerSecond = "m/s"
    case millimetresPerSecond = "mm/s"

    /// This unit per m/s.
    public var perMetrePerSecond: Double {
        switch self {
        case .metresPerSecond: 1
        case .millimetresPerSecond: 1000
        }
    }
}
