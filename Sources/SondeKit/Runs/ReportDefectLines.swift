import SondeCore
public import SondeDSP
public import SondeIO
public import SondeReport

/// `sonde report --bearing` with a shaft speed (given or from `--tacho`): per input, each
/// channel's squared-envelope spectrum as `sonde diagnose` reads it
/// (`BearingDiagnosis.envelopeSpectrum`), drawn with the bearing's defect lines and the
/// diagnosis table under it; none for the tachometer channel. The input is read a second
/// time, whole: the envelope needs every sample of a channel, the graph holds a window.
public struct ReportDefectLines: Sendable {
    public let shaft: BearingDiagnosisRun.Shaft
    public let bearing: DefectMultiples

    public init(shaft: BearingDiagnosisRun.Shaft, bearing: DefectMultiples) {
        self.shaft = shaft
        self.bearing = bearing
    }

    /// The figures of input `index` (named `name`), in its channels' order.
    public func figures(_ inputs: [SampleInput], options: SampleSourceOptions) -> EnvelopeFigures {
        let (shaft, multiples) = (shaft, bearing)
        return { index, name in
            let source = try SampleSources.open(path: inputs[index].path, options: options)
            let rate = source.format.sampleRate
            let names = source.format.channelNames
            let channels = try ChannelSamples.read(source, name: name)
            var speed = ShaftSpeed(hertz: 1)
            var tachoIndex: Int?
            switch shaft {
            case .given(let given):
                speed = given
            case .tachometer(let tacho, let pulses):
                do {
                    (speed, tachoIndex) = try TachometerSpeed.speed(
                        of: channels, names: names, tachometer: tacho, sampleRate: rate, pulsesPerRevolution: pulses)
                } catch {
                    throw SondeError(.invalidInput, "\(name): \(error)")
                }
            }
            let defects = BearingDefect.allCases.map { ($0.abbreviation, multiples.frequency(of: $0, at: speed)) }
            return try channels.enumerated().map { channel, samples -> ReportEnvelope? in
                guard channel != tachoIndex else { return nil }
                let channelName = channel < names.count ? names[channel] : "\(channel + 1)"
                let found: (band: Kurtogram.Cell, spectrum: SquaredEnvelopeSpectrum)
                do {
                    found = try samples.withUnsafeBufferPointer {
                        try BearingDiagnosis.envelopeSpectrum($0, sampleRate: rate, shaft: speed, bearing: multiples)
                    }
                } catch let error as KurtogramError {
                    throw SondeError(.invalidInput, "\(name), channel \(channelName): \(error.description)")
                }
                let low = found.band.centre - found.band.bandwidth / 2
                let high = found.band.centre + found.band.bandwidth / 2
                let spectrum = found.spectrum
                return ReportEnvelope(
                    title: "Envelope spectrum of \(low.significantDigits(6))-\(high.significantDigits(6)) Hz, "
                        + "\(channelName) (shaft \(speed.hertz.significantDigits(4)) Hz)",
                    frequencies: spectrum.density.indices.map { Double($0) * spectrum.resolution },
                    density: spectrum.density, defects: defects,
                    diagnosis: Self.table(
                        BearingDiagnosis(spectrum: spectrum, band: found.band, shaft: speed, bearing: multiples)))
            }
        }
    }

    /// The table under the envelope figure, worded as `sonde diagnose` words the same diagnosis.
    public static func table(_ diagnosis: BearingDiagnosis) -> ReportEnvelope.Diagnosis {
        let threshold = diagnosis.threshold
        let rows = diagnosis.findings.map { finding in
            let levels = finding.harmonics.map { $0.level.map { $0.significantDigits(3) } ?? "not measurable" }
            return ReportEnvelope.DefectRow(
                name: finding.defect.abbreviation, frequency: finding.frequency,
                level: finding.level.map { "\($0.significantDigits(3)) dB" }
                    ?? "not measurable (\(Self.shortReason(finding.harmonics.first?.notMeasurable)))",
                harmonicsFound: "\(finding.harmonicsFound(threshold: threshold))/\(finding.harmonics.count)",
                harmonicLevels: levels.joined(separator: ", "))
        }
        return ReportEnvelope.Diagnosis(rows: rows, verdict: diagnosis.verdictText)
    }

    /// Why a level is missing, in a few words for the table (`sonde diagnose` says it in full).
    static func shortReason(_ why: HarmonicLevel.NotMeasurable?) -> String {
        switch why {
        case .aboveNyquist: "above the envelope's Nyquist"
        case .tooFewBins(let bins): "\(bins) of 8 bins: too short"
        case .silent: "silent band"
        case nil: "no level"
        }
    }
}
