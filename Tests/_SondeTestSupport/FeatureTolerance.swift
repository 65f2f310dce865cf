import Foundation

/// The reference-check tolerances of FEATURES.md: `|got - want| <= 1e-4 |want| + floor`,
/// with the floor depending on the column's unit and the frame's own scale.
public enum FeatureTolerance {
    /// Compares one record of sonde's output with the reference record and returns a
    /// description of every column that disagrees (empty when all agree).
    /// - Parameters:
    ///   - sampleRate: fs of the input, for the frequency floors.
    ///   - frameLength: N, for `spectral_flux`'s floor (section 7 columns only).
    ///   - velocityLow: LO of `--velocity-band`, for `velocity_rms`'s floor.
    public static func mismatches(
        columns: [String], got: [String], want: [String], sampleRate: Double, frameLength: Int = 0, velocityLow: Double = 10
    ) -> [String] {
        var problems: [String] = []
        func value(_ name: String, in row: [String]) -> Double? {
            columns.firstIndex(of: name).flatMap { Double(row[$0]) }
        }
        let peak = value("peak", in: want).map(abs) ?? 0
        let amplitude = peak == 0 ? 1 : peak
        let totalPower = value("total_power", in: want) ?? 0
        let powerScale = totalPower == 0 ? 1e-30 : 1e-9 * totalPower
        // mel_*/mfcc_*: 1e-6·(1 + max_j |mel_j|) dB. Without mel columns, max |mfcc_j|/16 is
        // a lower bound of max |mel_j| (Parseval, M <= 256), so the floor is only stricter.
        let mels = columns.indices.filter { columns[$0].hasPrefix("mel_") }.compactMap { Double(want[$0]) }.map(abs)
        let mfccs = columns.indices.filter { columns[$0].hasPrefix("mfcc_") }.compactMap { Double(want[$0]) }.map(abs)
        let melScale = mels.max() ?? (mfccs.max() ?? 0) / 16
        // A flat frame (peak_to_peak 0) is checked to 1e-9 relative.
        let isFlat = value("peak_to_peak", in: want) == 0
        for (index, name) in columns.enumerated() {
            guard index < got.count, index < want.count else {
                problems.append("\(name): missing")
                continue
            }
            if name == "channel" || name == "file" || name == "frame" || name == "start" {
                if got[index] != want[index] { problems.append("\(name): got \(got[index]), want \(want[index])") }
                continue
            }
            guard let g = Double(got[index]), let w = Double(want[index]) else {
                problems.append("\(name): got \(got[index]), want \(want[index]) (not numbers)")
                continue
            }
            let relative = isFlat ? 1e-9 : 1e-4
            let floor: Double
            switch name {
            case "time": floor = 0
            case "mean", "rms", "std", "peak", "peak_to_peak", "dominant_amplitude": floor = 1e-9 * amplitude
            case "total_power": floor = powerScale
            case _ where name.hasPrefix("band_power:"): floor = powerScale
            case "dominant_frequency", "spectral_centroid", "spectral_bandwidth", "spectral_rolloff": floor = 1e-6 * sampleRate
            case "snr_db": floor = 1e-3
            case _ where name.hasPrefix("mel_") || name.hasPrefix("mfcc_"): floor = 1e-6 * (1 + melScale)
            case "spectral_flux": floor = 1e-9 * amplitude * Double(frameLength)
            case "velocity_rms": floor = 1e-9 * amplitude / (2 * Double.pi * velocityLow)
            case "envelope_rms": floor = 1e-9 * amplitude
            case "envelope_frequency": floor = 1e-6 * sampleRate
            case "level_a", "level_c": floor = 1e-6
            case _ where name.hasPrefix("octave:") || name.hasPrefix("third_octave:"): floor = 1e-6
            default: floor = 1e-9
            }
            let allowed = name == "time" ? 1e-9 * abs(w) + 1e-12 : relative * abs(w) + floor
            if !(abs(g - w) <= allowed) {
                problems.append("\(name): got \(g), want \(w) (|diff| \(abs(g - w)) > \(allowed))")
            }
        }
        return problems
    }
}
