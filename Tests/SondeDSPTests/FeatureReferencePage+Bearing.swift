/// Section 9 of docs/features.md (`sonde diagnose`, issue 47): prose and tables written by
/// hand, kept here so the generated page and the committed one stay one text.
extension FeatureReferencePage {
    static let bearingDiagnosis = #"""

        ## 9. Bearing diagnosis (`sonde diagnose`)

        One answer per channel for a rolling-element bearing (issue 47; R. B. Randall, J. Antoni,
        "Rolling element bearing diagnostics - A tutorial", MSSP 25, 2011): the band to demodulate
        from the fast kurtogram ([kurtogram-definition.md](kurtogram-definition.md)), that band's
        squared-envelope spectrum, the level of each defect frequency in it, and a verdict.
        `Sources/SondeDSP/Bearing/` computes it; `Tests/Fixtures/kurtogram/reference_kurtogram.py`
        (`defect_levels`) reproduces the levels with numpy (`BearingDiagnosisTests`: within
        1e-9·(1 + |ref|) dB, the same band and the same bins).

        **Shaft speed** `--shaft-speed 1797rpm` or `29.95hz` (a positive number and its unit, any
        case). **Bearing** `--bearing`, as multiples of shaft speed (`bpfo=3.5848,bpfi=5.4152,bsf=2.357,ftf=0.3983`,
        all four), as geometry (`n=9,d=7.94mm,D=39.04mm,angle=0`: rolling elements, element and
        pitch diameter in mm or in, contact angle φ in degrees, 0 if left out) with r = d/D·cos φ:
        BPFO = n/2·(1 - r), BPFI = n/2·(1 + r), BSF = D/(2d)·(1 - r²), FTF = (1 - r)/2; or by name:

        | name (aliases) | n | d | D | φ | source |
        |---|---:|---:|---:|---:|---|
        | `6205-2RS` (6205, skf6205, cwru-de) | 9 | 0.3126 in | 1.537 in | 0° | Case Western Reserve University Bearing Data Center, drive-end bearing SKF 6205-2RS JEM (BPFO 3.5848, BPFI 5.4152, BSF 2.357, FTF 0.3983 as published) |
        | `6203-2RS` (6203, skf6203, cwru-fe) | 8 | 0.2656 in | 1.122 in | 0° | the same, fan-end bearing SKF 6203-2RS JEM (BPFO 3.0530, BPFI 4.9469) |
        | `ZA-2115` (za2115, ims) | 16 | 0.331 in | 2.815 in | 15.17° | Rexnord ZA-2115 of the IMS run-to-failure data (NASA Prognostics Data Repository; H. Qiu et al., J. Sound Vib. 289, 2006: BPFO 236.4 Hz at 2000 rpm) |
        | `MFPT` (nice) | 8 | 0.235 in | 1.245 in | 0° | MFPT Society bearing fault data set (E. Bechhoefer): BPFO 81.125 Hz, BPFI 118.875 Hz at 25 Hz |

        **Tachometer** (`sonde diagnose`, `sonde report`): `--tacho CH` reads the shaft speed off a
        channel of each input instead of `--shaft-speed`, CH its name (`ch3`, a CSV header) or its
        index from 0, with `--pulses-per-rev N` pulses per revolution (1 unless given); that
        channel is not diagnosed (nor given an envelope figure). `sonde process` takes
        `--shaft-speed` only. Threshold: the channel's mid-level m = min + (max - min)/2. A rising edge is
        the first sample at or above m after the channel has been below min + (max - min)/4
        (hysteresis: noise on a pulse does not count twice), at the time where the line through
        that sample and the one before crosses m. Speed = (edges - 1) / N over the time from the
        first edge to the last: the mean speed of the whole recording. A flat channel, or one
        with fewer than two edges, is an error naming it.

        **Band.** The kurtogram (6 levels by default) of the channel; the band is its best cell
        (the kurtogram's order and ties) among the rows whose band signal's Nyquist frequency is at
        least 1.1 × the highest of the four defect frequencies, so every fundamental's window fits
        (when no row does, the whole band, row 0, and the verdict is "not measurable" if no
        fundamental has a level).
        A recording shorter than 2^(levels+7) samples is an error that says how long it must be.

        **Envelope spectrum.** The squared-envelope spectrum of that band (kurtogram-definition.md)
        with segment length P = the smallest power of two ≥ 8 whose resolution rate/P is at most
        shaft speed/250, but at most the default (the largest power of two ≤ n/2) and at most 2^17. Bin i is at
        i·(rate/P) Hz.

        **Level of a harmonic** h·f of a defect frequency f (h = 1, 2, 3): the search band is the
        bins in [hf·0.98, hf·1.02] (±2% for slip), the background the bins in [hf·0.90, hf·1.10]
        outside the search band; level = 10·log10(largest search bin / median of the background),
        in dB (the median of an even count is the mean of the middle two). **Not measurable** (no
        number, and the reason) when hf·1.10 is above the envelope spectrum's Nyquist frequency,
        when the background has fewer than 8 bins (too short a recording for that frequency: with
        4 s at 25.6 kHz a cage line at 12 Hz is not measurable, with 2 s neither is a 47 Hz ball
        line), or when the median or the peak is 0. A defect's level is its fundamental's;
        "harmonics found" counts the harmonics at or above the threshold.

        **Verdict.** The defect with the highest fundamental level at or above the threshold
        (default **10 dB**) is named ("outer race fault likely", "inner race fault likely", "ball
        fault likely", "cage fault likely"); if none reaches it, "no bearing defect above 10 dB",
        followed by the defects whose fundamental is not measurable, "(FTF not measurable)": a
        defect not read is not ruled out.
        On every signal of the hit-rate table below, the highest fundamental of a defect that was not
        seeded (any of the four on a healthy signal) was 7.5 dB, and 6.0 dB on the healthy ones. Lines can coincide: with a 6205, 3 × BSF
        lies 1.4% below 2 × BPFO, so a ball fault also raises BPFO's second harmonic; the verdict reads
        fundamentals only.

        **Severity.** The ISO 20816-3 zone of the channel's velocity r.m.s. in mm/s: the `velocity_rms`
        of section 7 over the whole recording, sqrt(Σ Pavg[k]/(2π f[k])²·df) over 10 <= f[k] < 1000 Hz,
        Pavg the Welch average (periodic Hann, segment P = the largest power of two <= min(n, fs), hop
        P/2, each segment's mean removed). The samples are taken as m/s²; `--input-unit g` scales them
        by 9.80665 first (only the velocity depends on the unit: the levels are ratios). ISO 20816-3:2022 Annex A, Table A.1 (group 1, large machines 300 kW-50 MW)
        and Table A.2 (group 2, medium machines 15-300 kW); a value on a boundary is in the zone above.

        | group, foundation | A/B | B/C | C/D (mm/s) |
        |---|---:|---:|---:|
        | 1, rigid | 2.3 | 4.5 | 7.1 |
        | 1, flexible | 3.5 | 7.1 | 11.0 |
        | 2, rigid | 1.4 | 2.8 | 4.5 |
        | 2, flexible | 2.3 | 4.5 | 7.1 |

        **Hit rate** (the verdict names the seeded defect; for healthy signals, names none): the
        tests' synthetic bearings (`Tests/_SondeTestSupport/SyntheticBearingSignal.swift`: 25.6 kHz,
        4 s, a 6205-2RS, shaft harmonics 1/0.5/0.3, a 32-tooth gear mesh with 20% AM at shaft speed and its
        second harmonic, impulses at the defect rate with ±1.5% uniform slip ringing a 3 kHz resonance
        of damping ratio 0.05, inner-race and ball impulses modulated 0.6 + 0.4 cos at shaft speed,
        white noise; SNR = impulse power / noise power; a healthy signal has the noise of an outer-race
        fault at that SNR), 20 seeds per cell, at 1200, 1797 and 2400 rpm:

        | SNR (dB) | outer 1200 | outer 1797 | outer 2400 | inner 1200 | inner 1797 | inner 2400 | ball 1200 | ball 1797 | ball 2400 | healthy: none named |
        |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
        | 0 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 60/60 |
        | -5 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 60/60 |
        | -10 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 20 | 60/60 |
        | -12.5 | 20 | 20 | 0 | 20 | 20 | 2 | 20 | 20 | 20 | 60/60 |
        | -15 | 20 | 1 | 0 | 20 | 3 | 0 | 20 | 20 | 20 | 60/60 |
        | -17.5 | 0 | 0 | 0 | 1 | 0 | 0 | 20 | 15 | 5 | 60/60 |
        | -20 | 0 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 60/60 |

        No signal was given a wrong defect: every miss is "no bearing defect", where the kurtogram
        picked the whole band (row 0) over the resonance. Faster shafts fail first because the same
        impulse power is spread over more, weaker impulses; ball faults, the slowest rate, last.

        """#

    /// After the bearing family's table in section 7: what Pe and f are, when a column is not
    /// measurable, and where the per-file summary is.
    static let bearingColumns = #"""

        Per frame, the levels `sonde diagnose` (section 9) reads off a whole recording, so that
        a defect can be trended. `Pe` is the frame's squared-envelope spectrum: c =
        `scipy.signal.hilbert(x)` of the frame (after `--filter`: a `bandpass` around the
        resonance is the band demodulated; without one, the whole band), e = |c|² - mean |c|²,
        and `Pe = scipy.signal.welch(e, fs, window='hann', nperseg=N, noverlap=N/2,
        detrend='constant', scaling='density')`: one segment, the frame itself, bin i at i·df,
        df = fs/N (section 9's Welch code with P = N). f is the defect's multiple (`--bearing`,
        section 9) times `--shaft-speed`; both are required with any of these columns. The level
        is section 9's rule for the fundamental: the search band ±2% (slip), the background
        ±10% outside it, the median of an even count the mean of the middle two. Harmonics are
        not columns: `sonde diagnose` counts them per file.

        **Not measurable.** Whether a level can be read depends only on N, fs and f, so a column
        that cannot be is refused before any sample is read: the error names it when f·1.10 is
        above the Nyquist frequency fs/2, or when the background holds fewer than 8 bins (df too
        coarse for ±2% of f), and gives the shortest `--window` that measures it. With a 6205-2RS
        at 1797 rpm and 25.6 kHz: `bpfi_db` needs `--window 8192`, `bpfo_db` 16384, `bsf_db`
        32768, `ftf_db` 131072. No column is ever a made-up level, nor NaN (section 6): list the
        measurable ones in `--features`.

        **Per file.** A file's summary is `sonde diagnose FILE` (section 9): the same rule on the
        Welch average of the whole recording in the kurtogram's band, finer bins than any frame,
        with the harmonics found and the verdict. `Tests/Fixtures/kurtogram/generate_frame_defect_levels.py`
        reproduces the columns with numpy/scipy (`FrameDefectLevelTests`).

        """#
}
