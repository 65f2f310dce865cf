/// The per-window features of docs/features.md sections 4 and 5, in the order of that page,
/// which is also their default column order. Raw values are the column names.
public enum Feature: String, CaseIterable, Sendable, Hashable {
    case mean, rms, std, peak
    case peakToPeak = "peak_to_peak"
    case crestFactor = "crest_factor"
    case skewness, kurtosis
    case zeroCrossingRate = "zero_crossing_rate"
    case totalPower = "total_power"
    case dominantFrequency = "dominant_frequency"
    case dominantAmplitude = "dominant_amplitude"
    case spectralCentroid = "spectral_centroid"
    case spectralBandwidth = "spectral_bandwidth"
    case spectralRolloff = "spectral_rolloff"
    case spectralFlatness = "spectral_flatness"
    case spectralEntropy = "spectral_entropy"
    case thd
    case snrDB = "snr_db"

    /// Parses a comma-separated list such as `rms,peak,kurtosis`, keeping the user's order.
    /// - Throws: `SondeError(.invalidArgument)` naming the unknown feature and the valid ones.
    public static func parseList(_ text: String) throws -> [Feature] {
        var features: [Feature] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingASCIISpaces()
            guard let feature = Feature(rawValue: name) else {
                let valid = Feature.allCases.map(\.rawValue).joined(separator: ", ")
                throw SondeError(.invalidArgument, "--features: unknown feature '\(name)'; expected some of: \(valid)")
            }
            guard !features.contains(feature) else {
                throw SondeError(.invalidArgument, "--features: '\(name)' is listed twice")
            }
            features.append(feature)
        }
        return features
    }
}

extension Substring {
    func trimmingASCIISpaces() -> String {
        String(
            self.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }
}
