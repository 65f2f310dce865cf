import Foundation
import SondeCore
import SondeDSP

/// `docs/features.md`, written from `FeatureCatalog`: the page lists what the declarations
/// say, so it cannot drift from the code. Only the frame around the tables is written here:
/// the numbered sections 1-8 and "Reference checks" that the code, the docs and `--help`
/// cite as `docs/features.md section N` (`Tests/Docs/check_docs.py` checks each citation).
enum FeatureReferencePage {
    static func markdown() -> String {
        var text = opening
        var familiesOpened = false
        for group in FeatureCatalog.groups {
            switch group.title {
            case "record keys": text += "\n"
            case "time domain": text += "\n## 4. Time-domain features\n\n"
            case "spectrum": text += "\n## 5. Spectral features\n\n"
            default:
                if !familiesOpened {
                    text += outputRecords + optionalFamilies
                    familiesOpened = true
                }
                text += "\n### \(capitalized(group.title))\n\n"
            }
            text += "\(capitalized(group.summary)).\n\n"
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
            if group.title == "bearing" { text += bearingColumns }
        }
        text += spectra + bearingDiagnosis + referenceChecks
        for scale in ToleranceClass.Scale.allCases where scale != .one {
            text += "| \(cell(scale.symbol)) | \(cell(meaning(scale))) |\n"
        }
        text += """

            With a filter, A is the larger of the two peaks because a filter's rounding scales
            with its input: on 101325 Pa + 10 Pa at 100 Hz through `highpass:10:4`, merely
            reordering scipy's two sections moves `mean` by 5e-7 Pa, 26 times the floor the
            filtered frame's peak would give.

            Flat frames are checked to 1e-9 relative. Where a discrete choice sits on a near-tie
            (an argmax between two equal bins, a rolloff or band edge landing on a bin, a
            rounding at .5), either neighbouring answer is accepted.

            """
        return text
    }

    /// The title, the notation, and sections 1 to 3 up to the record keys' table.
    private static let opening = """
        # Feature reference

        Every number `sonde process` and `sonde spectrum` write: its definition, unit, the
        independent implementation the tests compare it with, and how closely it agrees. The
        code, the docs and `--help` cite this page by its numbered sections
        (`docs/features.md section 5`) and by its heading "Reference checks". Generated from
        the columns' declarations (`Sources/SondeCore/Feature+Declaration.swift` and
        `Sources/SondeDSP/Features/Families/`) and the text of
        `Tests/SondeDSPTests/FeatureReferencePage.swift`; `SONDE_RECORD=1 swift test --filter
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
        - The tolerances' scales (`A`, `fs`, ...) are defined under "Reference checks", at
          the end.

        ## 1. Ingest and channels

        - Every channel of an input is measured on its own, with the same settings; each
          record names its channel.
        - Raw files (`--sample-type`): `f32le`, `f64le`, `i16le` or `i32le`, interleaved
          (`--channels`); integers are scaled by 1/2^15 and 1/2^31. Sound files (WAV, FLAC,
          AIFF, Ogg Vorbis, Opus, MP3) are read through libsndfile as 64-bit floats
          (`sf_readf_double`: integers normalised, floats not clipped). The channels of raw
          and sound files are named `ch0`, `ch1`, ...
        - `--rate` overrides any rate the input states (a WAV header, a CSV time column).
        - CSV (RFC 4180, quoted fields allowed) has one row per sample instant. A number is
          what `strtod` accepts in decimal or scientific notation (`-1.5`, `2e-3`, `.5`);
          `nan`, `inf`, hexadecimal and empty cells are not numbers. If any cell of the first
          row is not a number, that row is a header. A header column named `time`, `t` or
          `timestamp` (case-insensitive) is the time in seconds, not a channel; without
          `--rate`, `fs = 1 / median(diff(time))` (for an even count, the mean of the two
          middle values, as in numpy). Every other column is a channel, named by its
          header, or `ch0`, `ch1`, ... without one. A CSV with neither a time column nor
          `--rate` is an error that asks for `--rate`. Empty lines are skipped; a cell that
          is not a number, or a row with the wrong number of cells, is an error naming the
          file, line and column.
        - Files, folders and standard input as inputs: [docs/usage.md](usage.md#files); live
          sources: [docs/live.md](live.md).

        ## 2. Filtering

        `--filter SPEC`, repeatable: the stages run in order on the continuous stream, before
        framing, as one cascade cut into pieces of 65,536 samples counted from the input's first
        sample. The first piece starts from zero state; each later one from the state
        `s[b+1] = Φᴸ·s[b] + z[b]` (`z[b]` the state piece `b` leaves a zero-started cascade in,
        `Φᴸ` the cascade's state transition over a piece): the carried state in exact
        arithmetic, computed so that pieces can be filtered side by side. So any chunking of the
        input, `--jobs` and ring size give the same output; an input shorter than a piece is
        `sosfilt`'s output bit for bit, a longer one within the rounding that "Reference checks"
        allows a filter.

        - `lowpass:F[:ORDER]`, `highpass:F[:ORDER]`, `bandpass:F1-F2[:ORDER]` and
          `bandstop:F1-F2[:ORDER]` are Butterworth filters designed as
          `scipy.signal.butter(ORDER, Wn, btype, fs=fs, output='sos')` and run as second-order
          sections like `scipy.signal.sosfilt` (transposed direct form II); ORDER is 4 unless
          given.
        - `notch:F[:Q]` is `scipy.signal.iirnotch(F, Q, fs)` (Q is 30 unless given), run as
          one biquad.
        - `dc` removes the DC component: a first-order Butterworth high-pass at 0.5 Hz,
          `butter(1, 0.5, 'highpass', fs=fs)`.
        - Every frequency must lie below the Nyquist frequency `fs/2`: at 12 kHz
          `bandpass:2000-6000` is refused and `bandpass:2000-5000` works. A stage with
          F <= 0, F >= fs/2, F1 >= F2, an ORDER outside 1 to 16 or Q <= 0 is refused with a
          message naming it (`filter 'lowpass:30000': cutoff 30000 Hz must be below half the
          sample rate (22050 Hz)`).

        ## 3. Framing and records

        - Frame `k` covers samples `k·H ..< k·H + N` of the filtered stream. Only complete
          frames are written: no centring, no padding. `--window N` is a power of two from 16
          to 1,048,576 (1024 by default); `--hop H` is 1 to N (N/2 by default).
        - Records come in time order: frame by frame, and within a frame the channels in the
          input's order. Several inputs come one after another, in the order given (a
          folder's in the order of its sorted walk).

        """

    /// Section 6, and section 7 up to the first family's table.
    private static let outputRecords = """

        ## 6. Output records

        - The columns, in this order: `file` (only with several inputs), `time`, `channel`,
          `frame`, `start`, then the features of sections 4 and 5 in this page's order (or in
          the order `--features` lists them), then the columns of section 7 in that section's
          order.
        - `--format csv`: RFC 4180, a header row, `.` as the decimal separator, one record per
          line. `json`: one array of objects. `ndjson`: one object per line. `parquet`: typed
          columns, see [docs/usage.md](usage.md#parquet-for-data-pipelines).
        - The text formats print each number in the shortest form that reads back to the same
          64-bit float; Parquet holds the floats themselves.
        - `sonde stream` flushes each record as soon as it is written
          ([docs/live.md](live.md)).
        - No number is ever NaN or Infinity, in any format: the definitions say what a
          degenerate frame gives.

        """

    private static let optionalFamilies = """

        ## 7. Optional feature families

        None is in the default set; each is asked for by option. They are computed from the
        same frame, window and spectrum as sections 4 and 5, and their columns come after the
        features of sections 4 and 5, in this section's order. The single-valued ones
        (`spectral_flux`, `velocity_rms`, `envelope_rms`, `envelope_frequency`, `level_a`,
        `level_c`, `bpfo_db`, `bpfi_db`, `bsf_db`, `ftf_db`) are asked for by name in `--features`, the mel and MFCC columns by `--mel`
        and `--mfcc`, band powers and octave bands by `--bands`. A band `LO-HI` must satisfy
        `0 <= LO < HI <= fs/2`; bands may overlap.

        """

    /// Section 8, and "Reference checks" up to its table's rows.
    private static let spectra = """

        ## 8. Spectra (`sonde spectrum`)

        The averaged spectrum of a whole input, per channel: `Pavg[k]`, the mean of `P[k]`
        (section 5) over every complete frame of section 3, which is `scipy.signal.welch(x,
        fs, window='hann', nperseg=N, noverlap=N-H, detrend=False, scaling='density')`. Flat
        frames use their exact spectrum. The output has one row per bin, `frequency`
        (`f[k]`, in Hz) then one column per channel (in input unit²/Hz), as CSV or JSON;
        several inputs give one table with a leading `file` column. An input shorter than one
        window is an error. Windows, hop, filters and inputs are those of `sonde process`.

        **`--envelope`** gives the squared-envelope spectrum instead, per channel: e = |c|² -
        mean |c|², c the band signal, then `scipy.signal.welch(e, rate, window='hann',
        nperseg=P, noverlap=P/2, detrend='constant', scaling='density')` (section 9's code),
        P the smallest power of two ≥ 8 with rate/P <= fs/N, an error when the band signal
        has fewer than 2P samples. `--band auto` (the default): c is the band signal of the
        fast kurtogram's best cell (`--levels`, 6; [kurtogram-definition.md](kurtogram-definition.md)),
        at that cell's rate; `--band LO-HI` (0 <= LO < HI <= fs/2): c =
        `numpy.fft.ifft(numpy.fft.fft(x, M) * H)[:n]` at rate fs, M the smallest power of
        two >= n, H = 2 on the bins with LO <= k·fs/M <= HI, 0 < k < M/2, 1 on bins 0 and
        M/2 when inside, 0 elsewhere. Unit: input unit⁴/Hz. When channels' bins differ (bands at
        different rates), the table has every channel's frequencies and an empty CSV field
        (JSON null) where a channel has no bin. `--hop`, `--filter`, `--ring-capacity` and
        `--cpu-report` are refused with it. `Tests/Fixtures/kurtogram/generate_envelope_spectrum.py`
        reproduces it with numpy/scipy (`EnvelopeSpectrumTests`: within 1e-9 of the peak).

        """

    private static let referenceChecks = """

        ## Reference checks

        The tests compare every column with its reference on recorded and synthetic inputs
        (`Tests/Fixtures`), with and without each filter kind: `|sonde - ref| <=
        relative·|ref| + floor`, the floor scaled by the same record:

        | scale | meaning |
        |---|---|

        """

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
        case .peak:
            "the frame's `peak`, or 1 when it is 0; with `--filter`, the larger of the filtered and the "
                + "unfiltered frame's peak"
        case .totalPower: "the frame's `total_power`; the floor is 1e-30 when that is 0"
        case .sampleRate: "the sample rate in Hz"
        case .peakTimesFrameLength: "A times the window length"
        case .peakOverVelocityBand: "A over 2π times the lower edge of `--velocity-band`"
        case .melLevels: "1 plus the largest |mel level| of the frame, in dB"
        }
    }
}
