/// A bearing's condition from one channel: the kurtogram's band, the defect levels in that
/// band's squared-envelope spectrum, and a verdict against a stated threshold.
public struct BearingDiagnosis: Sendable, Equatable {
    /// The diagnosis's answer.
    public enum Verdict: Sendable, Equatable {
        /// This defect's level reaches the threshold, and it is the highest that does.
        case fault(BearingDefect)
        /// No defect's level reaches the threshold.
        case none
        /// No defect's fundamental could be read (above the envelope's Nyquist frequency, or
        /// too short a recording for its resolution): no answer rather than a made-up "none".
        case notMeasurable
    }

    /// dB over the background a defect line must reach to be named: on the healthy test
    /// signals no fundamental reached 6.0 dB (docs/features.md section 9).
    public static let defaultThreshold = 10.0

    /// The band demodulated: the best kurtogram cell wide enough for every fundamental.
    public let band: Kurtogram.Cell
    /// Sample rate of the band signal, Hz (its envelope spectrum ends at half of it).
    public let envelopeSampleRate: Double
    /// Bin spacing of the envelope spectrum, Hz.
    public let envelopeResolution: Double
    /// Segments the envelope spectrum averages.
    public let envelopeSegments: Int
    public let shaft: ShaftSpeed
    /// One per defect, in `BearingDefect.allCases` order.
    public let findings: [DefectFinding]
    /// dB, as given.
    public let threshold: Double
    public let verdict: Verdict

    /// "outer race fault likely (BPFO 12.3 dB ≥ 10 dB)" or "no bearing defect above 10 dB",
    /// naming the defects whose fundamental could not be read ("(FTF not measurable)"): a
    /// defect not read is not a defect ruled out.
    public var verdictText: String {
        let limit = threshold.significantDigits(4)
        switch verdict {
        case .fault(let defect):
            let level = findings.first { $0.defect == defect }?.level ?? threshold
            return "\(defect.verdict) (\(defect.abbreviation) \(level.significantDigits(3)) dB ≥ \(limit) dB)"
        case .none:
            let unread = findings.filter { $0.level == nil }.map(\.defect.abbreviation)
            let none = "no bearing defect above \(limit) dB"
            return unread.isEmpty ? none : none + " (\(unread.joined(separator: ", ")) not measurable)"
        case .notMeasurable:
            return "not measurable: no defect frequency can be read in this band's envelope spectrum"
        }
    }

    /// Reads the defect levels off an envelope spectrum and gives the verdict: the defect with
    /// the highest fundamental level at or above `threshold`, if any; `.notMeasurable` when no
    /// fundamental has a level.
    public init(
        spectrum: SquaredEnvelopeSpectrum, band: Kurtogram.Cell, shaft: ShaftSpeed, bearing: DefectMultiples,
        rule: DefectLevelRule = DefectLevelRule(), threshold: Double = defaultThreshold
    ) {
        findings = BearingDefect.allCases.map { defect in
            let frequency = bearing.frequency(of: defect, at: shaft)
            return DefectFinding(
                defect: defect, frequency: frequency,
                harmonics: (1...max(1, rule.harmonics)).map {
                    spectrum.harmonicLevel(order: $0, frequency: Double($0) * frequency, rule: rule)
                })
        }
        var verdict = Verdict.none
        var highest = threshold
        for finding in findings {
            if let level = finding.level, level >= highest {
                verdict = .fault(finding.defect)
                highest = level
            }
        }
        self.verdict = findings.allSatisfy { $0.level == nil } ? .notMeasurable : verdict
        self.band = band
        self.envelopeSampleRate = spectrum.sampleRate
        self.envelopeResolution = spectrum.resolution
        self.envelopeSegments = spectrum.segmentCount
        self.shaft = shaft
        self.threshold = threshold
    }

    /// Diagnoses one channel: the kurtogram of `levels` levels, its best cell among those whose
    /// envelope reaches (1 + rule.window) × the highest defect fundamental, that band's
    /// squared-envelope spectrum (segment length `DefectLevelRule.segmentLength`), the levels.
    /// - Parameters:
    ///   - samples: the channel, at least `FastKurtogram.minimumLength(levels:)` finite samples.
    ///   - sampleRate: Hz, > 0.
    /// - Throws: `KurtogramError` (too short a recording, a non-finite sample, bad levels).
    public static func diagnose(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, shaft: ShaftSpeed, bearing: DefectMultiples,
        levels: Int = 6, rule: DefectLevelRule = DefectLevelRule(), threshold: Double = defaultThreshold
    ) throws -> BearingDiagnosis {
        let (cell, spectrum) = try envelopeSpectrum(
            samples, sampleRate: sampleRate, shaft: shaft, bearing: bearing, levels: levels, rule: rule)
        return BearingDiagnosis(
            spectrum: spectrum, band: cell, shaft: shaft, bearing: bearing, rule: rule, threshold: threshold)
    }

    /// The band and the envelope spectrum a diagnosis reads (the report draws it): the
    /// kurtogram's best cell among those whose envelope reaches (1 + rule.window) × the highest
    /// defect fundamental, and that band's squared-envelope spectrum.
    /// - Throws: `KurtogramError`, as `diagnose`.
    public static func envelopeSpectrum(
        _ samples: UnsafeBufferPointer<Double>, sampleRate: Double, shaft: ShaftSpeed, bearing: DefectMultiples,
        levels: Int = 6, rule: DefectLevelRule = DefectLevelRule()
    ) throws -> (band: Kurtogram.Cell, spectrum: SquaredEnvelopeSpectrum) {
        let highest = BearingDefect.allCases.map { bearing.frequency(of: $0, at: shaft) }.max() ?? 0
        // No band reaches them all: the whole band (row 0), whose envelope goes furthest, so
        // that "not measurable" names the recording's own Nyquist frequency.
        let (_, cell, signal) = try FastKurtogram.computeKeepingBest(
            samples, sampleRate: sampleRate, levels: levels, envelopeNyquistAtLeast: highest * (1 + rule.window))
        let length = DefectLevelRule.segmentLength(count: signal.samples.count, rate: signal.sampleRate, shaft: shaft)
        return (cell, try SquaredEnvelopeSpectrum(signal, segmentLength: length))
    }

    /// Diagnoses one channel; a convenience for arrays.
    public static func diagnose(
        _ samples: [Double], sampleRate: Double, shaft: ShaftSpeed, bearing: DefectMultiples, levels: Int = 6,
        rule: DefectLevelRule = DefectLevelRule(), threshold: Double = defaultThreshold
    ) throws -> BearingDiagnosis {
        try samples.withUnsafeBufferPointer {
            try diagnose(
                $0, sampleRate: sampleRate, shaft: shaft, bearing: bearing, levels: levels, rule: rule,
                threshold: threshold)
        }
    }
}
