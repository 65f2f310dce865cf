import Foundation
import SondeCore

/// `bpfo_db`, `bpfi_db`, `bsf_db`, `ftf_db`: each bearing defect's level in the frame's
/// squared-envelope spectrum, read by the rule `sonde diagnose` reads a whole recording with
/// (`SquaredEnvelopeSpectrum.harmonicLevel`), so a level can be trended frame by frame.
///
/// The frame's analytic signal is x + i·H[x] (H[x] from `FrameHilbert`, as
/// `EnvelopeFamily`), e = |c|² - mean |c|², and its density is the squared-envelope spectrum's
/// Welch loop with one segment of N samples (`SquaredEnvelopeSpectrum.accumulateDensity`).
/// Every buffer is made once per extractor: nothing is allocated per frame.
final class BearingFamily: FeatureFamily {
    static let declaration = FamilyDeclaration(
        name: "bearing",
        summary:
            "bearing defect levels in the frame's squared-envelope spectrum (Pe and f_d are defined below the table)",
        columns: BearingDefect.allCases.map { defect in
            FeatureDeclaration(
                .name(columnName(defect)), unit: "dB",
                definition:
                    "10·log10(max Pe[i] over 0.98·f ≤ i·df ≤ 1.02·f / median Pe[i] over 0.90·f ≤ i·df ≤ 1.10·f "
                    + "outside that), f = \(defect.abbreviation) = \(defect.rawValue) × shaft speed; "
                    + "0 for a flat frame or a silent envelope (a median or peak of 0)",
                reference: "scipy.signal.hilbert, scipy.signal.welch(nperseg=N), numpy.median",
                input: .spectrum, request: .byName, tolerance: .level)
        },
        options: [
            .init(
                flag: "--shaft-speed", valueName: "SPEED",
                help:
                    "Shaft speed for bpfo_db, bpfi_db, bsf_db, ftf_db (and sonde report's envelope figure): 1797rpm or 29.95hz."
            ),
            .init(
                flag: "--bearing", valueName: "B",
                help:
                    "The bearing for those columns, as sonde diagnose takes it: a name (6205), multiples (bpfo=..,bpfi=..,bsf=..,ftf=..) or a geometry (n=9,d=7.94mm,D=39.04mm,angle=0)."
            ),
        ]
    )

    /// `bpfo_db`, ...: the column of one defect.
    static func columnName(_ defect: BearingDefect) -> String { "\(defect.rawValue)_db" }

    static func columnNames(for configuration: FeatureConfiguration) -> [String] {
        configuration.families.bearingColumns.map(columnName)
    }

    private let length: Int
    private let sampleRate: Double
    /// The defect frequencies of the columns, Hz, in column order.
    private let frequencies: [Double]
    private let rule = DefectLevelRule()
    private let hilbert: FrameHilbert
    private var welch: PairedSegmentWelch
    private let weights: [Double]
    private let envelope: UnsafeMutableBufferPointer<Double>
    private let density: UnsafeMutableBufferPointer<Double>
    /// The background bins of one level, sorted in place; its capacity is kept between frames.
    private var background: [Double]

    init(configuration: FeatureConfiguration) {
        length = configuration.frameLength
        sampleRate = configuration.sampleRate
        let families = configuration.families
        let shaft = families.shaftSpeed ?? ShaftSpeed(hertz: 1)
        frequencies = families.bearingColumns.map { families.bearing?.frequency(of: $0, at: shaft) ?? 0 }
        hilbert = FrameHilbert(length: length)
        welch = PairedSegmentWelch(length: length)
        weights = SquaredEnvelopeSpectrum.densityWeights(welch, sampleRate: sampleRate)
        envelope = .allocate(capacity: length)
        envelope.initialize(repeating: 0)
        density = .allocate(capacity: length / 2 + 1)
        density.initialize(repeating: 0)
        background = []
        background.reserveCapacity(length / 2 + 1)
    }

    deinit {
        envelope.deallocate()
        density.deallocate()
    }

    func measure(_ frame: FrameSpectrum, into values: UnsafeMutableBufferPointer<Double>) {
        guard !frame.isFlat else {
            values.update(repeating: 0)
            return
        }
        let n = length, x = frame.samples
        let buffer = hilbert.unscaledTransform(of: x)
        let scale = 1 / Double(n)
        var sum = 0.0
        for i in 0..<n {
            let q = buffer[i] * scale
            let e = x[i] * x[i] + q * q
            envelope[i] = e
            sum += e
        }
        let mean = sum / Double(n)
        for i in 0..<n {
            envelope[i] -= mean
        }
        weights.withUnsafeBufferPointer { weights in
            _ = SquaredEnvelopeSpectrum.accumulateDensity(
                UnsafeBufferPointer(envelope), welch: &welch, weights: weights, into: density)
        }
        let resolution = sampleRate / Double(n)
        for (column, frequency) in frequencies.enumerated() {
            let level = SquaredEnvelopeSpectrum.harmonicLevel(
                order: 1, frequency: frequency, rule: rule, density: UnsafeBufferPointer(density),
                sampleRate: sampleRate, resolution: resolution, background: &background)
            // Not measurable by configuration was refused before the run
            // (`FamilyOptions.validateBearing(frameLength:sampleRate:)`): only a silent envelope is left.
            values[column] = level.level ?? 0
        }
    }
}
