import Foundation
import SondeDSP
import SondeMeasurements

/// How a report names a value column for a person: a readable name ("Spectral centroid")
/// beside the column's own name (which CSV and `--features` use), its unit from the
/// feature catalog (docs/features.md lists the same), and for the columns whose 0 means
/// "could not be measured" rather than a measured 0, why.
public enum FeatureLabel {
    /// The readable name of a column (`band_power:0-100` is "Band power 0–100 Hz").
    public static func name(_ column: String) -> String {
        if let name = names[column] { return name }
        for (prefix, words, suffix) in patterns where column.hasPrefix(prefix) {
            let rest = column.dropFirst(prefix.count).replacingOccurrences(of: "-", with: "–")
            return "\(words) \(rest)\(suffix)"
        }
        let words = column.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The column's unit as the feature catalog states it, shortened to its first words
    /// (velocity_rms's note on options stays in docs/features.md); "" for a ratio or count
    /// (the catalog's "1") and for a column the catalog does not know.
    public static func unit(_ column: String) -> String {
        guard let unit = FeatureCatalog.declaration(ofColumn: column)?.unit, unit != "1" else { return "" }
        let end = [" (", ";"].compactMap { unit.range(of: $0)?.lowerBound }.min() ?? unit.endIndex
        return String(unit[..<end])
    }

    /// Why a 0 in this column is no measurement, or nil where 0 is a value like any other.
    ///
    /// docs/features.md section 5 defines `thd` and `snr_db` as 0 when the frame has no
    /// usable fundamental (the refined peak below bin 5, no power in it, no harmonic below
    /// N/2, no noise power, or a flat frame): a THD of 0 would read as a perfectly clean
    /// signal and an SNR of 0 dB as noise as strong as the signal, so a report leaves those
    /// windows out of the statistics and says how many there were and why.
    public static func unmeasuredReason(_ column: String) -> String? {
        // Which columns: the one rule the saved means follow too; here only the words.
        guard UnmeasuredZero.applies(to: column) else { return nil }
        return switch column {
        case "thd":
            "no fundamental found (its frequency under 5 bins, no power in it, or no harmonic below half the sample rate)"
        case "snr_db":
            "no fundamental found (its frequency under 5 bins or no power in it), or no noise power beside it"
        default: "no value in this window"
        }
    }

    private static let names: [String: String] = [
        "mean": "Mean", "rms": "RMS", "std": "Standard deviation", "peak": "Peak", "peak_to_peak": "Peak to peak",
        "crest_factor": "Crest factor", "skewness": "Skewness", "kurtosis": "Kurtosis",
        "zero_crossing_rate": "Zero-crossing rate", "total_power": "Total power",
        "dominant_frequency": "Dominant frequency", "dominant_amplitude": "Dominant amplitude",
        "spectral_centroid": "Spectral centroid", "spectral_bandwidth": "Spectral bandwidth",
        "spectral_rolloff": "Spectral roll-off", "spectral_flatness": "Spectral flatness",
        "spectral_entropy": "Spectral entropy", "thd": "THD", "snr_db": "SNR", "spectral_flux": "Spectral flux",
        "velocity_rms": "Velocity RMS", "envelope_rms": "Envelope RMS", "envelope_frequency": "Envelope frequency",
        "level_a": "A-weighted level", "level_c": "C-weighted level",
    ]

    /// Column families: prefix, the words before the rest of the name, what follows it.
    private static let patterns: [(String, String, String)] = [
        ("band_power:", "Band power", " Hz"), ("third_octave:", "Third-octave band", " Hz"),
        ("octave:", "Octave band", " Hz"), ("mel_", "Mel band", ""), ("mfcc_", "MFCC", ""),
    ]
}
