import Foundation
import SondeCore
import SondeDSP

/// The tolerances of docs/features.md, "Reference checks", as each column's declaration
/// states them (`FeatureCatalog`): `|got - want| <= relative·|want| + coefficient·scale`,
/// the scale read from the reference record itself.
public enum FeatureTolerance {
    /// Compares one record of sonde's output with the reference record and returns a
    /// description of every column that disagrees or is not declared (empty when all agree).
    /// - Parameters:
    ///   - sampleRate: fs of the input, for the frequency floors.
    ///   - frameLength: N, for `spectral_flux`'s floor (docs/features.md section 7's columns only).
    ///   - velocityLow: LO of `--velocity-band`, for `velocity_rms`'s floor.
    ///   - unfilteredPeak: with `--filter`, the same frame's peak without the filter: `A` is
    ///     the larger of the two, since a filter's rounding scales with its input (0 without one).
    public static func mismatches(
        columns: [String], got: [String], want: [String], sampleRate: Double, frameLength: Int = 0,
        velocityLow: Double = 10, unfilteredPeak: Double = 0
    ) -> [String] {
        var problems: [String] = []
        func value(_ name: String, in row: [String]) -> Double? {
            columns.firstIndex(of: name).flatMap { Double(row[$0]) }
        }
        let peak = max(value("peak", in: want).map(abs) ?? 0, abs(unfilteredPeak))
        let amplitude = peak == 0 ? 1 : peak
        let totalPower = value("total_power", in: want) ?? 0
        // mel_*/mfcc_*: 1e-6·(1 + max_j |mel_j|) dB. Without mel columns, max |mfcc_j|/16 is
        // a lower bound of max |mel_j| (Parseval, M <= 256), so the floor is only stricter.
        let mels = columns.indices.filter { columns[$0].hasPrefix("mel_") }.compactMap { Double(want[$0]) }.map(abs)
        let mfccs = columns.indices.filter { columns[$0].hasPrefix("mfcc_") }.compactMap { Double(want[$0]) }.map(abs)
        let melScale = mels.max() ?? (mfccs.max() ?? 0) / 16
        func scale(_ scale: ToleranceClass.Scale) -> Double {
            switch scale {
            case .one: 1
            case .peak: amplitude
            case .totalPower: totalPower
            case .sampleRate: sampleRate
            case .peakTimesFrameLength: amplitude * Double(frameLength)
            case .peakOverVelocityBand: amplitude / (2 * Double.pi * velocityLow)
            case .melLevels: 1 + melScale
            }
        }
        // A flat frame (peak_to_peak 0) is checked to 1e-9 relative.
        let isFlat = value("peak_to_peak", in: want) == 0
        for (index, name) in columns.enumerated() {
            guard index < got.count, index < want.count else {
                problems.append("\(name): missing")
                continue
            }
            guard let declaration = FeatureCatalog.declaration(ofColumn: name) else {
                problems.append("\(name): no declaration in FeatureCatalog")
                continue
            }
            guard let bound = declaration.tolerance.bound else {
                if got[index] != want[index] { problems.append("\(name): got \(got[index]), want \(want[index])") }
                continue
            }
            guard let g = Double(got[index]), let w = Double(want[index]) else {
                problems.append("\(name): got \(got[index]), want \(want[index]) (not numbers)")
                continue
            }
            let relative = isFlat && declaration.tolerance != .time ? 1e-9 : bound.relative
            // total_power's floor is 1e-30 for a frame without power.
            let floor = bound.scale == .totalPower && totalPower == 0 ? 1e-30 : bound.coefficient * scale(bound.scale)
            let allowed = relative * abs(w) + floor
            if !(abs(g - w) <= allowed) {
                problems.append("\(name): got \(g), want \(w) (|diff| \(abs(g - w)) > \(allowed))")
            }
        }
        return problems
    }
}
