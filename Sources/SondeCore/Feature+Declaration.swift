extension Feature {
    /// This feature's declaration (docs/features.md sections 4 and 5). The switch is
    /// exhaustive: a new case does not compile until it is declared here.
    public var declaration: FeatureDeclaration {
        func declare(
            _ unit: String, _ definition: String, reference: String, _ tolerance: ToleranceClass,
            input: FeatureDeclaration.Input = .spectrum
        ) -> FeatureDeclaration {
            FeatureDeclaration(
                .name(rawValue), unit: unit, definition: definition, reference: reference, input: input,
                request: .byDefault,
                tolerance: tolerance)
        }
        switch self {
        case .mean:
            return declare("input unit", "Σx / N", reference: "numpy.mean(x)", .amplitude, input: .samples)
        case .rms:
            return declare(
                "input unit", "sqrt(Σx² / N)", reference: "numpy.sqrt(numpy.mean(x**2))", .amplitude, input: .samples)
        case .std:
            return declare(
                "input unit", "sqrt(m2), the population standard deviation; m_j = Σ(x - mean)^j / N",
                reference: "numpy.std(x)",
                .amplitude, input: .moments)
        case .peak:
            return declare("input unit", "max |x|", reference: "numpy.max(numpy.abs(x))", .amplitude, input: .samples)
        case .peakToPeak:
            return declare("input unit", "max x - min x", reference: "numpy.ptp(x)", .amplitude, input: .samples)
        case .crestFactor:
            return declare("1", "peak / rms; 0 when rms = 0", reference: "numpy", .ratio, input: .samples)
        case .skewness:
            return declare(
                "1", "m3 / m2^1.5; 0 when m2 <= (1e-15·mean)², where scipy gives up", reference: "scipy.stats.skew(x)",
                .ratio,
                input: .moments)
        case .kurtosis:
            return declare(
                "1", "m4 / m2² (Pearson: 3 for Gaussian noise); 0 under skewness's condition",
                reference: "scipy.stats.kurtosis(x, fisher=False)", .ratio, input: .moments)
        case .zeroCrossingRate:
            return declare(
                "1", "the number of n in 1..N-1 with (x[n-1] >= 0) != (x[n] >= 0), divided by N-1", reference: "numpy",
                .ratio,
                input: .samples)
        case .totalPower:
            return declare("input unit²", "Σ_k P[k]·df", reference: Self.periodogram, .power)
        case .dominantFrequency:
            return declare(
                "Hz",
                "(k* + d)·df: k* = argmax P[k] over 2 <= k <= N/2 (lowest k on ties); d = 0.5·(a - c) / (a - 2b + c) with "
                    + "a, b, c = ln P at k*-1, k*, k*+1 (P floored at 1e-300), 0 if the denominator is 0 or k* = N/2, "
                    + "clamped to ±0.5; 0 for a flat frame",
                reference: "numpy", .frequency)
        case .dominantAmplitude:
            return declare(
                "input unit", "2·S[k*] / Σw, the amplitude of a sinusoid centred on bin k*; 0 for a flat frame",
                reference: "numpy", .amplitude)
        case .spectralCentroid:
            return declare(
                "Hz", "Σ f[k]·S[k] / Σ S[k]; 0 when Σ S = 0",
                reference: "librosa.feature.spectral_centroid(S=S, freq=f)",
                .frequency)
        case .spectralBandwidth:
            return declare(
                "Hz", "sqrt(Σ S[k]·(f[k] - centroid)² / Σ S[k]); 0 when Σ S = 0",
                reference: "librosa.feature.spectral_bandwidth(S=S, freq=f)", .frequency)
        case .spectralRolloff:
            return declare(
                "Hz", "the smallest f[k] with S[0] + ... + S[k] >= 0.85·Σ S",
                reference: "librosa.feature.spectral_rolloff(S=S, freq=f)", .frequency)
        case .spectralFlatness:
            return declare(
                "1", "exp(mean ln Q) / mean Q with Q[k] = max(S[k]², 1e-10); 1 for an all-zero frame",
                reference: "librosa.feature.spectral_flatness(S=S)", .ratio)
        case .spectralEntropy:
            return declare(
                "1", "-Σ p·log2 p / log2(K) with p[k] = S[k]² / Σ S² (p = 0 counts 0); 0 when Σ S² = 0",
                reference: "numpy",
                .ratio)
        case .thd:
            return declare(
                "1",
                "sqrt(Σ_h Ph / P1): P1 the power of the 5 bins around round(k1), Ph of those around round(h·k1) for the "
                    + "harmonics h = 2..5 whose 5 bins lie below N/2; 0 when k1 < 5, P1 = 0 or no harmonic fits",
                reference: "numpy", .ratio)
        case .snrDB:
            return declare(
                "dB",
                "10·log10(P1 / Pn), Pn the power outside bins 0..2 (DC), the fundamental's and the harmonics' bins; "
                    + "0 when k1 < 5, Pn = 0 or P1 = 0",
                reference: "numpy", .signalToNoise)
        }
    }

    static let periodogram = "scipy.signal.periodogram(x, fs, window='hann', scaling='density')"
}

extension FeatureDeclaration {
    /// `band_power:LO-HI`, one column per band of `--bands`, after the features.
    public static let bandPower = FeatureDeclaration(
        .pattern(prefix: "band_power:", display: "band_power:LO-HI"), unit: "input unit²",
        definition: "Σ P[k]·df over LO <= f[k] < HI, f[k] = k·fs/N; LO and HI in shortest form (band_power:12.5-40)",
        reference: Feature.periodogram, input: .spectrum, request: .byOption("--bands LO-HI,..."), tolerance: .power)

    /// The keys every record starts with (docs/features.md sections 3 and 6); `file` only with
    /// several inputs.
    public static let recordKeys: [FeatureDeclaration] = [
        key("file", "text", "the input's path as given; only with several inputs", .exact),
        key(
            "time", "s, or RFC 3339 UTC",
            "start / fs, plus the first value of the input's time column if it has one; live: the wall-clock time of "
                + "the frame's first sample",
            .time),
        key("channel", "text", "the channel's name", .exact),
        key("frame", "count", "k, the frame's index in its input", .exact),
        key("start", "samples", "k·H, the index of the frame's first sample", .exact),
    ]

    private static func key(_ name: String, _ unit: String, _ definition: String, _ tolerance: ToleranceClass) -> Self {
        FeatureDeclaration(
            .name(name), unit: unit, definition: definition, reference: "-", input: .position, request: .always,
            tolerance: tolerance)
    }
}
