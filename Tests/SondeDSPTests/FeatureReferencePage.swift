import Foundation
import SondeCore
import SondeDSP

/// `docs/features.md`, written from `FeatureCatalog`: the page lists what the declarations
/// say, so it cannot drift from the code. Only the frame around the tables is written here.
enum FeatureReferencePage {
    static func markdown() -> String {
        var text = """
            # Feature reference

            Every column `sonde process` writes: its definition, unit, the independent
            implementation the tests compare it with, and how closely it agrees. Generated from
            the columns' declarations (`Sources/SondeCore/Feature+Declaration.swift` and
            `Sources/SondeDSP/Features/Families/`); `SONDE_RECORD=1 swift test --filter
            FeatureDeclarationTests` rewrites it, and that test fails when it is stale.

            ## Notation

            - `x[n]`: one channel's samples in the frame, after any `--filter`; `N` the window
              (`--window`), `H` the hop, `fs` the sample rate, `df = fs / N`, `K = N/2 + 1` bins.
              Frame `k` covers samples `k·H ..< k·H + N`; only complete frames are written.
            - `w`: the periodic Hann window (`scipy.signal.get_window('hann', N)`);
              `X = rfft(w·x)`, `S = |X|`, `f[k] = k·df`.
            - `P[k] = |X[k]|² / (fs·Σw²)`, doubled for `0 < k < N/2`: the one-sided density PSD
              (`scipy.signal.periodogram(x, fs, window='hann', detrend=False, scaling='density')`).
            - `k*`, `d` and `k1 = k* + d`: the peak bin, its parabolic refinement and the refined
              peak (`dominant_frequency`).
            - A flat frame (every sample equal, to `c`) takes the exact DFT of a constant,
              `X[0] = c·N/2`, `X[1] = -c·N/4`, the other bins 0, instead of the FFT's round-off;
              its `dominant_*`, `thd`, `snr_db` and envelope values are 0.
            - Samples become 64-bit floats as they are read and every step is double precision.
              No value is ever NaN or Infinity: the definitions say what a degenerate frame gives.

            ## Tolerance

            The tests compare every column with its reference on recorded and synthetic inputs
            (`Tests/Fixtures`): `|sonde - ref| <= relative·|ref| + floor`, the floor scaled by
            the same record:

            | scale | meaning |
            |---|---|

            """
        for scale in ToleranceClass.Scale.allCases where scale != .one {
            text += "| \(cell(scale.symbol)) | \(cell(meaning(scale))) |\n"
        }
        text += """

            Flat frames are checked to 1e-9 relative. Where a discrete choice sits on a near-tie
            (an argmax between two equal bins, a rolloff or band edge landing on a bin, a
            rounding at .5), either neighbouring answer is accepted.

            """
        for group in FeatureCatalog.groups {
            text += "\n## \(capitalized(group.title))\n\n\(capitalized(group.summary)).\n\n"
            text += "| column | unit | definition | reference | tolerance | asked for by |\n|---|---|---|---|---|---|\n"
            for column in group.columns {
                let cells = [
                    "`\(column.name)`", cell(column.unit), cell(column.definition), cell(column.reference),
                    cell(column.tolerance.text), request(column),
                ]
                text += "| " + cells.joined(separator: " | ") + " |\n"
            }
            if !group.options.isEmpty {
                text += "\n| option | meaning |\n|---|---|\n"
                for option in group.options {
                    text += "| `\(option.flag) \(option.valueName)` | \(cell(option.help)) |\n"
                }
            }
        }
        return text
    }

    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// A '|' inside a cell (|X|) would end it.
    private static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    private static func request(_ column: FeatureDeclaration) -> String {
        switch column.request {
        case .always: "always"
        case .byDefault: "default; `--features` chooses"
        case .byName: "`--features \(column.name)`"
        case .byOption(let option): "`\(option)`"
        }
    }

    private static func meaning(_ scale: ToleranceClass.Scale) -> String {
        switch scale {
        case .one: "1, in the column's unit"
        case .peak: "the frame's `peak`, or 1 when it is 0"
        case .totalPower: "the frame's `total_power`; the floor is 1e-30 when that is 0"
        case .sampleRate: "the sample rate in Hz"
        case .peakTimesFrameLength: "A times the window length"
        case .peakOverVelocityBand: "A over 2π times the lower edge of `--velocity-band`"
        case .melLevels: "1 plus the largest |mel level| of the frame, in dB"
        }
    }
}
