/// The four characteristic frequencies of a rolling-element bearing, each the rate at which
/// one kind of damage strikes (R. B. Randall, J. Antoni, MSSP 25, 2011).
public enum BearingDefect: String, CaseIterable, Sendable, Codable {
    /// Ball pass frequency, outer race: a spall on the stationary outer race.
    case outerRace = "bpfo"
    /// Ball pass frequency, inner race: a spall on the rotating inner race.
    case innerRace = "bpfi"
    /// Ball (rolling element) spin frequency: a damaged ball.
    case ball = "bsf"
    /// Fundamental train (cage) frequency: a damaged cage.
    case cage = "ftf"

    /// The verdict's words: "outer race fault likely".
    public var verdict: String {
        switch self {
        case .outerRace: return "outer race fault likely"
        case .innerRace: return "inner race fault likely"
        case .ball: return "ball fault likely"
        case .cage: return "cage fault likely"
        }
    }

    /// The usual abbreviation, upper case: BPFO, BPFI, BSF, FTF.
    public var abbreviation: String { rawValue.uppercased() }
}
