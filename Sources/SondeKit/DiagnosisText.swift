public import SondeCore
public import SondeDSP

/// How `sonde diagnose` words a channel's diagnosis, as text and as JSON.
public enum DiagnosisText {
    /// One channel's answer.
    public struct Report: Sendable {
        public let channel: String
        public let diagnosis: BearingDiagnosis
        /// Velocity r.m.s., mm/s (10-1000 Hz); nil when the recording has no bin in that band.
        public let velocity: Double?

        public init(channel: String, diagnosis: BearingDiagnosis, velocity: Double?) {
            self.channel = channel
            self.diagnosis = diagnosis
            self.velocity = velocity
        }
    }

    /// What every channel shares: the bearing and the ISO 20816-3 class.
    public struct Context: Sendable {
        public let bearing: DefectMultiples
        public let group: ISO20816Zone.MachineGroup
        public let foundation: ISO20816Zone.Foundation
        public let inputUnit: String

        public init(
            bearing: DefectMultiples, group: ISO20816Zone.MachineGroup, foundation: ISO20816Zone.Foundation,
            inputUnit: String
        ) {
            self.bearing = bearing
            self.group = group
            self.foundation = foundation
            self.inputUnit = inputUnit
        }
    }

    public static func lines(_ report: Report, _ context: Context) -> [String] {
        let d = report.diagnosis
        let band = d.band
        var lines = [
            "\(report.channel): \(d.verdictText)",
            "  band: \(hz(band.centre - band.bandwidth / 2))-\(hz(band.centre + band.bandwidth / 2)) Hz "
                + "(kurtogram level \(band.level.significantDigits(4)), kurtosis \(band.kurtosis.significantDigits(4))); "
                + "envelope spectrum to \(hz(d.envelopeSampleRate / 2)) Hz in \(d.envelopeResolution.significantDigits(3)) Hz "
                + "bins, \(d.envelopeSegments) segments",
            "  shaft \(d.shaft); threshold \(d.threshold.significantDigits(4)) dB",
        ]
        for finding in d.findings {
            let levels = finding.harmonics.map { harmonic -> String in
                if let level = harmonic.level { return "\(level.significantDigits(3)) dB" }
                return "not measurable (\(reason(harmonic.notMeasurable)))"
            }
            lines.append(
                "  \(finding.defect.abbreviation) \(hz(finding.frequency)) Hz "
                    + "(\(context.bearing[finding.defect].significantDigits(5)) × shaft): "
                    + "\(finding.harmonicsFound(threshold: d.threshold))/\(finding.harmonics.count) harmonics found; "
                    + levels.joined(separator: ", "))
        }
        lines.append("  " + severity(report.velocity, context))
        return lines
    }

    public static func json(_ report: Report, _ context: Context) -> JSONValue {
        let d = report.diagnosis
        let verdict: String
        switch d.verdict {
        case .fault(let defect): verdict = defect.rawValue
        case .none: verdict = "none"
        case .notMeasurable: verdict = "not_measurable"
        }
        let zone = report.velocity.map {
            ISO20816Zone(velocityRMS: $0, group: context.group, foundation: context.foundation).rawValue
        }
        return .object([
            "channel": .string(report.channel), "verdict": .string(verdict), "verdict_text": .string(d.verdictText),
            "threshold_db": .number(d.threshold), "shaft_hz": .number(d.shaft.hertz),
            "band": .object([
                "row": .integer(d.band.row), "level": .number(d.band.level), "band": .integer(d.band.band),
                "low_hz": .number(d.band.centre - d.band.bandwidth / 2),
                "high_hz": .number(d.band.centre + d.band.bandwidth / 2), "kurtosis": .number(d.band.kurtosis),
            ]),
            "envelope": .object([
                "sample_rate": .number(d.envelopeSampleRate), "resolution_hz": .number(d.envelopeResolution),
                "segments": .integer(d.envelopeSegments),
            ]),
            "defects": .array(
                d.findings.map { finding in
                    .object([
                        "defect": .string(finding.defect.rawValue), "frequency_hz": .number(finding.frequency),
                        "multiple": .number(context.bearing[finding.defect]), "level_db": .optional(finding.level),
                        "harmonics_found": .integer(finding.harmonicsFound(threshold: d.threshold)),
                        "harmonics": .array(
                            finding.harmonics.map { harmonic in
                                .object([
                                    "order": .integer(harmonic.order), "frequency_hz": .number(harmonic.frequency),
                                    "peak_hz": .optional(harmonic.peakFrequency), "level_db": .optional(harmonic.level),
                                    "not_measurable": .optional(harmonic.notMeasurable.map { reason($0) }),
                                ])
                            }),
                    ])
                }),
            "velocity_rms_mm_s": .optional(report.velocity), "iso20816_zone": .optional(zone),
            "machine_group": .integer(context.group.rawValue), "foundation": .string(context.foundation.rawValue),
        ])
    }

    static func severity(_ velocity: Double?, _ context: Context) -> String {
        guard let velocity else {
            return "velocity r.m.s.: not measurable (no spectrum bin between 10 and 1000 Hz)"
        }
        let zone = ISO20816Zone(velocityRMS: velocity, group: context.group, foundation: context.foundation)
        let limits = ISO20816Zone.boundaries(group: context.group, foundation: context.foundation)
        return "velocity r.m.s. \(velocity.significantDigits(3)) mm/s (10-1000 Hz, input in \(context.inputUnit)): "
            + "ISO 20816-3 zone \(zone.rawValue), \(zone.meaning) (group \(context.group.rawValue), "
            + "\(context.foundation.rawValue): A/B \(limits.ab.significantDigits(3)), "
            + "B/C \(limits.bc.significantDigits(3)), C/D \(limits.cd.significantDigits(3)) mm/s)"
    }

    static func reason(_ why: HarmonicLevel.NotMeasurable?) -> String {
        switch why {
        case .aboveNyquist(let nyquist): return "above the envelope's \(hz(nyquist)) Hz Nyquist frequency"
        case .tooFewBins(let bins): return "\(bins) of the 8 background bins it needs: too short a recording"
        case .silent: return "a silent band"
        case nil: return "no level"
        }
    }

    private static func hz(_ value: Double) -> String { value.significantDigits(5) }
}
