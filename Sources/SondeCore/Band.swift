/// A frequency band `[low, high)` in Hz whose power becomes one `band_power:LO-HI` column.
public struct Band: Sendable, Hashable {
    public var low: Double
    public var high: Double

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    /// `band_power:LO-HI` with both edges in shortest form (`0-1000`, `12.5-40`).
    public var columnName: String {
        "band_power:\(low.compactDescription)-\(high.compactDescription)"
    }

    /// Parses `LO-HI,LO-HI,...`; validation against the sample rate happens in `validate(sampleRate:)`.
    /// - Throws: `SondeError(.invalidArgument)` naming the malformed item.
    public static func parseList(_ text: String) throws -> [Band] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { try parse($0.trimmingASCIISpaces()) }
    }

    /// Parses `--bands`: `LO-HI` items and the band sets `octave` and `third-octave`, in any mix.
    /// - Throws: `SondeError(.invalidArgument)` naming the malformed or repeated item.
    public static func parseRequest(_ text: String) throws -> (bands: [Band], octaveSets: [OctaveBandSet]) {
        var bands: [Band] = []
        var sets: [OctaveBandSet] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let spec = item.trimmingASCIISpaces()
            if let set = OctaveBandSet(rawValue: spec) {
                guard !sets.contains(set) else {
                    throw SondeError(.invalidArgument, "--bands: '\(spec)' is listed twice")
                }
                sets.append(set)
            } else {
                let band = try parse(spec)
                // Two columns of one name make a Parquet file that readers refuse.
                if bands.contains(where: { $0.columnName == band.columnName }) {
                    throw SondeError(
                        .invalidArgument,
                        "--bands: \(band.low.compactDescription)-\(band.high.compactDescription) is listed twice; give each band once (its column is \(band.columnName))"
                    )
                }
                bands.append(band)
            }
        }
        // Columns follow docs/features.md section 7's order, whatever the user's.
        return (bands, OctaveBandSet.allCases.filter(sets.contains))
    }

    private static func parse(_ spec: String) throws -> Band {
        // Split at the first '-' that is not a leading sign, so "0-1e-3" is not accepted
        // by accident: band edges are plain non-negative numbers.
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]),
            low.isFinite, high.isFinite
        else {
            throw SondeError(
                .invalidArgument,
                "--bands: '\(spec)' is not a band; expected LO-HI in Hz (e.g. 0-1000 or 12.5-40), octave or third-octave"
            )
        }
        return Band(low: low, high: high)
    }

    /// docs/features.md section 7: `0 <= LO < HI <= fs/2`.
    public func validate(sampleRate: Double) throws {
        guard low >= 0, low < high, high <= sampleRate / 2 else {
            throw SondeError(
                .invalidArgument,
                "--bands: band \(low.compactDescription)-\(high.compactDescription) Hz must satisfy 0 <= LO < HI <= \((sampleRate / 2).compactDescription) (half the sample rate)"
            )
        }
    }
}
