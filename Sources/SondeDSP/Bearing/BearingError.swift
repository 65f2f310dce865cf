/// Why a shaft speed, a bearing or a diagnosis could not be had; each message names the
/// offending text and what to give instead.
public enum BearingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Shaft speed text that is not a number followed by rpm or hz.
    case invalidShaftSpeed(String)
    /// A bearing specification that is neither a known name, four multiples nor a geometry.
    case invalidBearing(String, reason: String)
    /// A bearing name that the table does not hold.
    case unknownBearing(String, known: [String])
    /// A `--tacho` channel that does not exist or holds no pulses.
    case invalidTachometer(String, reason: String)

    public var description: String {
        switch self {
        case .invalidShaftSpeed(let text):
            return "shaft speed '\(text)': expected a positive number followed by rpm or hz, as 1797rpm or 29.95hz"
        case .invalidBearing(let text, let reason):
            return "bearing '\(text)': \(reason)"
        case .invalidTachometer(let text, let reason):
            return "--tacho \(text): \(reason)"
        case .unknownBearing(let text, let known):
            return "bearing '\(text)': not in the table (\(known.joined(separator: ", "))); give its multiples "
                + "(bpfo=3.5848,bpfi=5.4152,bsf=2.357,ftf=0.3983) or its geometry (n=9,d=7.94mm,D=39.04mm,angle=0)"
        }
    }
}
