/// The evaluation zone of ISO 20816-3 for a broadband vibration velocity: A (new machines),
/// B (unrestricted long-term operation), C (restricted operation), D (damage likely).
public enum ISO20816Zone: String, Sendable, CaseIterable, Comparable {
    case a = "A"
    case b = "B"
    case c = "C"
    case d = "D"

    /// The standard's machine groups (industrial machines above 15 kW, 120-30 000 r/min).
    public enum MachineGroup: Int, Sendable, CaseIterable {
        /// Large machines, 300 kW to 50 MW.
        case large = 1
        /// Medium machines, 15 kW to 300 kW.
        case medium = 2
    }

    /// How the machine is supported: rigid when its lowest natural frequency on the
    /// foundation is at least 25% above its running speed, flexible otherwise.
    public enum Foundation: String, Sendable, CaseIterable {
        case rigid
        case flexible
    }

    /// Zone boundaries A/B, B/C, C/D of the r.m.s. velocity, mm/s, per group and foundation:
    /// ISO 20816-3:2022, Annex A, Table A.1 (group 1) and Table A.2 (group 2), the values
    /// carried over from ISO 10816-3.
    public static func boundaries(group: MachineGroup, foundation: Foundation) -> (ab: Double, bc: Double, cd: Double) {
        switch (group, foundation) {
        case (.large, .rigid): return (2.3, 4.5, 7.1)
        case (.large, .flexible): return (3.5, 7.1, 11.0)
        case (.medium, .rigid): return (1.4, 2.8, 4.5)
        case (.medium, .flexible): return (2.3, 4.5, 7.1)
        }
    }

    /// The zone of an r.m.s. velocity in mm/s (≥ 0); a value on a boundary belongs to the
    /// zone above it, as the table's "up to" reads.
    public init(velocityRMS: Double, group: MachineGroup, foundation: Foundation) {
        let limits = Self.boundaries(group: group, foundation: foundation)
        switch velocityRMS {
        case ..<limits.ab: self = .a
        case ..<limits.bc: self = .b
        case ..<limits.cd: self = .c
        default: self = .d
        }
    }

    public static func < (lhs: ISO20816Zone, rhs: ISO20816Zone) -> Bool { lhs.rawValue < rhs.rawValue }

    /// What the zone means for the machine, in the standard's words shortened.
    public var meaning: String {
        switch self {
        case .a: return "newly commissioned machines"
        case .b: return "acceptable for unrestricted long-term operation"
        case .c: return "unsatisfactory for long-term operation"
        case .d: return "severe enough to cause damage"
        }
    }
}
