import SondeCore

/// What the command line says about inputs that are containers of named arrays (MATLAB,
/// HDF5, TDMS): which arrays are channels, how a matrix holds them, where the rate is.
public struct ContainerOptions: Sendable, Equatable {
    /// `--variables`: MAT variable paths (`X105_DE_time`, `bearing.gs`, `Y(7).Data`), HDF5
    /// dataset paths (`/group/dataset`) or TDMS channels (`group/channel`); nil: every
    /// numeric array of the file's most common length, with a note naming them.
    public var variables: [String]?
    /// `--orientation`: which dimension of a matrix runs along time.
    public var orientation: String
    /// `--rate-variable`: the MAT scalar holding the rate in Hz (`bearing.sr`).
    public var rateVariable: String?
    /// `--rate-attribute`: the HDF5 attribute holding the rate in Hz (`sample_rate`).
    public var rateAttribute: String?

    public init(
        variables: [String]? = nil, orientation: String = "auto", rateVariable: String? = nil,
        rateAttribute: String? = nil
    ) {
        self.variables = variables
        self.orientation = orientation
        self.rateVariable = rateVariable
        self.rateAttribute = rateAttribute
    }

    /// Whether any option was given (a non-container input then refuses them: none is
    /// silently ignored).
    public var isSet: Bool {
        variables != nil || orientation != "auto" || rateVariable != nil || rateAttribute != nil
    }

    /// The options as a dataset's manifest records them, nil when none was given.
    public var settingsText: String? {
        guard isSet else { return nil }
        var parts: [String] = []
        if let variables { parts.append("variables=" + variables.joined(separator: ",")) }
        if orientation != "auto" { parts.append("orientation=" + orientation) }
        if let rateVariable { parts.append("rate_variable=" + rateVariable) }
        if let rateAttribute { parts.append("rate_attribute=" + rateAttribute) }
        return parts.joined(separator: ";")
    }

    /// The orientations `--orientation` accepts.
    public static let orientations = ArrayOrientation.allCases.map(\.rawValue)

    func arrayOrientation() throws -> ArrayOrientation {
        guard let orientation = ArrayOrientation(rawValue: orientation) else {
            throw SondeError(
                .invalidArgument,
                "--orientation \(orientation): expected one of \(Self.orientations.joined(separator: ", "))")
        }
        return orientation
    }
}
