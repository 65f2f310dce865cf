import Foundation
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// Bearing diagnosis: the defect levels against the numpy reference
/// (Tests/Fixtures/kurtogram/reference_kurtogram.py, `defect_levels`) on the kurtogram
/// fixtures, and the verdict on synthetic bearings of every fault kind at three speeds.
@Suite("Bearing diagnosis")
struct BearingDiagnosisTests {
    /// Levels: |ours - numpy| ≤ 1e-9 · (1 + |numpy|) dB; the spectra agree within 3.4e-15 of
    /// their peak, and a level is a log of a ratio of two of their bins.
    static let levelTolerance = 1e-9

    struct Diagnosis: Decodable {
        struct Harmonic: Decodable {
            let peakHz: Double?
            let db: Double?
        }
        let row: Int
        let band: Int
        let sampleRate: Double
        let segmentLength: Int
        let levels: [String: [Harmonic]]
    }

    struct Reference: Decodable {
        struct Signal: Decodable {
            let name: String
            let diagnosis: Diagnosis
        }
        let shaftHz: Double
        let nlevel: Int
        let sampleRate: Double
        let multiples: [String: Double]
        let signals: [Signal]
    }

    static func reference() throws -> Reference {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Reference.self, from: Fixtures.data("kurtogram/reference.json"))
    }

    @Test(arguments: KurtogramFixtures.signalNames)
    func defectLevelsMatchNumpy(_ name: String) throws {
        let reference = try Self.reference()
        let expected = try #require(reference.signals.first { $0.name == name }).diagnosis
        let (_, _, samples) = try KurtogramFixtures.load(name)
        let m = reference.multiples
        let bearing = DefectMultiples(
            bpfo: try #require(m["bpfo"]), bpfi: try #require(m["bpfi"]), bsf: try #require(m["bsf"]),
            ftf: try #require(m["ftf"]))
        let diagnosis = try BearingDiagnosis.diagnose(
            samples, sampleRate: reference.sampleRate, shaft: ShaftSpeed(hertz: reference.shaftHz), bearing: bearing,
            levels: reference.nlevel)
        #expect(diagnosis.band.row == expected.row && diagnosis.band.band == expected.band)
        #expect(diagnosis.envelopeSampleRate == expected.sampleRate)
        #expect(abs(diagnosis.envelopeResolution - expected.sampleRate / Double(expected.segmentLength)) <= 1e-12)
        for finding in diagnosis.findings {
            let harmonics = try #require(expected.levels[finding.defect.rawValue])
            try #require(harmonics.count == finding.harmonics.count)
            for (ours, theirs) in zip(finding.harmonics, harmonics) {
                let label = "\(name) \(finding.defect.rawValue) harmonic \(ours.order)"
                if let want = theirs.db {
                    let level = try #require(ours.level, "\(label): not measurable, numpy \(want) dB")
                    #expect(abs(level - want) <= Self.levelTolerance * (1 + abs(want)), "\(label)")
                    #expect(ours.peakFrequency == theirs.peakHz, "\(label)")
                } else {
                    #expect(
                        ours.level == nil && ours.notMeasurable != nil, "\(label): \(String(describing: ours.level))")
                }
            }
        }
    }

    /// A recording too short for the cage line's background (1 s, FTF at 11.9 Hz) is not
    /// called healthy in that respect: the verdict names what it could not read.
    @Test func namesTheDefectsItCouldNotRead() throws {
        var healthy = SyntheticBearingSignal()
        healthy.fault = .healthy
        healthy.duration = 1
        let diagnosis = try BearingDiagnosis.diagnose(
            healthy.samples(), sampleRate: healthy.sampleRate, shaft: ShaftSpeed(hertz: healthy.shaftHz),
            bearing: try DefectMultiples(parsing: "6205-2RS"))
        #expect(diagnosis.verdict == .none)
        let ftf = try #require(diagnosis.findings.first { $0.defect == .cage })
        #expect(ftf.level == nil)
        #expect(diagnosis.verdictText.hasPrefix("no bearing defect above 10 dB ("), "\(diagnosis.verdictText)")
        #expect(diagnosis.verdictText.hasSuffix("FTF not measurable)"), "\(diagnosis.verdictText)")
    }

    /// The seeded defect is named, at 1200, 1797 and 2400 rpm, for outer-race, inner-race and
    /// ball faults at SNR -10 dB (the hit-rate table of docs/features.md section 9 has every
    /// SNR); a healthy bearing gets none. Also: the kurtogram's band contains the 3 kHz resonance.
    @Test(arguments: [1200.0, 1797.0, 2400.0])
    func namesTheSeededDefect(rpm: Double) throws {
        let bearing = try DefectMultiples(parsing: "6205-2RS")
        let shaft = ShaftSpeed(hertz: rpm / 60)
        for (fault, defect) in [
            (SyntheticBearingSignal.Fault.outerRace, BearingDefect.outerRace), (.innerRace, .innerRace),
            (.ball, .ball),
        ] {
            var signal = SyntheticBearingSignal()
            signal.shaftHz = shaft.hertz
            signal.fault = fault
            signal.defectHz = bearing.frequency(of: defect, at: shaft)
            signal.snrDecibels = -10
            signal.seed = UInt64(rpm) + 7
            let diagnosis = try BearingDiagnosis.diagnose(
                signal.samples(), sampleRate: signal.sampleRate, shaft: shaft, bearing: bearing)
            #expect(diagnosis.verdict == .fault(defect), "\(fault) at \(rpm) rpm: \(diagnosis.verdictText)")
            let band = diagnosis.band
            #expect(
                abs(band.centre - signal.resonanceHz) <= band.bandwidth / 2, "\(fault) at \(rpm) rpm: band \(band)")
            #expect(diagnosis.verdictText.hasPrefix(defect.verdict))
        }
        var healthy = SyntheticBearingSignal()
        healthy.shaftHz = shaft.hertz
        healthy.fault = .healthy
        healthy.seed = UInt64(rpm) + 8
        let diagnosis = try BearingDiagnosis.diagnose(
            healthy.samples(), sampleRate: healthy.sampleRate, shaft: shaft, bearing: bearing)
        #expect(diagnosis.verdict == .none)
        // The defects whose fundamental is not read are named, never counted as absent.
        let unread = diagnosis.findings.filter { $0.level == nil }.map(\.defect.abbreviation)
        #expect(
            diagnosis.verdictText
                == "no bearing defect above 10 dB"
                + (unread.isEmpty ? "" : " (\(unread.joined(separator: ", ")) not measurable)"))
        for finding in diagnosis.findings {
            #expect((finding.level ?? -.infinity) < BearingDiagnosis.defaultThreshold - 2, "\(finding)")
        }
    }

    @Test func shaftSpeedParsing() throws {
        #expect(try ShaftSpeed(parsing: "1797rpm").hertz == 1797.0 / 60)
        #expect(try ShaftSpeed(parsing: "29.95hz").hertz == 29.95)
        #expect(try ShaftSpeed(parsing: " 29.95 Hz").hertz == 29.95)
        #expect(try ShaftSpeed(parsing: "1797 RPM").rpm == 1797)
        for bad in ["", "1797", "rpm", "-5hz", "0rpm", "nanhz", "infrpm", "12 kHz", "fast"] {
            #expect(throws: BearingError.invalidShaftSpeed(bad)) { try ShaftSpeed(parsing: bad) }
        }
        #expect(
            BearingError.invalidShaftSpeed("12").description
                == "shaft speed '12': expected a positive number followed by rpm or hz, as 1797rpm or 29.95hz")
    }

    /// The CWRU drive-end bearing's published multiples (BPFI 5.4152, BPFO 3.5848, FTF 0.39828,
    /// BSF 2.357), from its name and from its geometry, in inches and in millimetres.
    @Test func multiplesFromNameGeometryAndValues() throws {
        let expected = (bpfo: 3.5848, bpfi: 5.4152, bsf: 2.357, ftf: 0.3983)
        for text in ["6205-2RS", "6205", "SKF6205", "n=9,d=0.3126in,D=1.537in,angle=0", "n=9,d=7.94mm,D=39.04mm"] {
            let m = try DefectMultiples(parsing: text)
            #expect(abs(m.bpfo - expected.bpfo) < 5e-4 && abs(m.bpfi - expected.bpfi) < 5e-4, "\(text)")
            #expect(abs(m.bsf - expected.bsf) < 5e-4 && abs(m.ftf - expected.ftf) < 5e-4, "\(text)")
        }
        let given = try DefectMultiples(parsing: "bpfi=5.4152,bpfo=3.5848,bsf=2.357,ftf=0.3983")
        #expect(given == DefectMultiples(bpfo: 3.5848, bpfi: 5.4152, bsf: 2.357, ftf: 0.3983))
        #expect(given.frequency(of: .innerRace, at: ShaftSpeed(hertz: 30)) == 5.4152 * 30)
        // IMS's Rexnord ZA-2115 at 2000 rpm: BPFO 236.4 Hz as Qiu et al. give it.
        let ims = try DefectMultiples(parsing: "ZA-2115")
        #expect(abs(ims.frequency(of: .outerRace, at: ShaftSpeed(hertz: 2000.0 / 60)) - 236.4) < 0.1)
        // MFPT: BPFO 81.125 Hz at 25 Hz.
        #expect(abs(try DefectMultiples(parsing: "mfpt").bpfo * 25 - 81.125) < 0.01)
    }

    @Test func badBearingsAreRejectedWithTheReason() throws {
        let cases: [(String, String)] = [
            ("bpfi=5.4,bpfo=3", "bsf, ftf missing"),
            ("bpfi=5,bpfo=3,bsf=2,ftf=abc", "ftf=abc is not a positive number"),
            ("bpfi=5,bpfo=3,bsf=2,ftf=0.4,bpfi=6", "bpfi is given twice"),
            ("n=9,d=7.94,D=39mm", "d=7.94 is not a positive length in mm or in"),
            ("n=9,d=40mm,D=39mm", "d must be smaller"),
            ("n=9,d=1mm,D=3mm,angle=95", "angle=95"),
            ("n=nine,d=1mm,D=3mm", "n=nine is not a whole number"),
            ("n=9,d=1mm", "a geometry needs n"),
            ("x=1", "x is not a geometry key"),
            ("6999", "not in the table (6205-2RS, 6203-2RS, ZA-2115, MFPT)"),
        ]
        for (text, reason) in cases {
            let error = #expect(throws: BearingError.self) { try DefectMultiples(parsing: text) }
            #expect(error?.description.contains(reason) == true, "\(text): \(String(describing: error))")
        }
    }

    /// Above the envelope spectrum's Nyquist frequency, or with too few bins around it, a
    /// harmonic has no level, never a made-up one.
    @Test func notMeasurableHarmonicsHaveNoLevel() throws {
        let band = KurtogramBandSignal(
            samples: (0..<4096).map { SIMD2(1 + 0.5 * sin(Double($0) * 0.7), 0) }, sampleRate: 1000)
        let spectrum = try SquaredEnvelopeSpectrum(band, segmentLength: 1024)
        let rule = DefectLevelRule()
        let above = spectrum.harmonicLevel(order: 3, frequency: 460, rule: rule)
        #expect(above.level == nil && above.peakFrequency == nil && above.notMeasurable == .aboveNyquist(500))
        let low = spectrum.harmonicLevel(order: 1, frequency: 10, rule: rule)
        #expect(low.level == nil && low.notMeasurable == .tooFewBins(2))  // 9.77 and 10.74 Hz
        let measurable = spectrum.harmonicLevel(order: 1, frequency: 1000 * 0.7 / (2 * Double.pi), rule: rule)
        #expect((measurable.level ?? 0) > 20)
        let silent = try SquaredEnvelopeSpectrum(
            KurtogramBandSignal(samples: .init(repeating: SIMD2(1, 0), count: 4096), sampleRate: 1000),
            segmentLength: 1024)
        #expect(silent.harmonicLevel(order: 1, frequency: 100, rule: rule).notMeasurable == .silent)
    }

    /// Defect frequencies above what any band's envelope shows: every level is nil and the
    /// verdict says so, never "no defect".
    @Test func defectsAboveNyquistAreNotMeasurable() throws {
        let samples = (0..<16384).map { sin(Double($0) * 0.3) + 0.01 * sin(Double($0) * 1.7) }
        let diagnosis = try BearingDiagnosis.diagnose(
            samples, sampleRate: 1000, shaft: ShaftSpeed(hertz: 1300), bearing: try DefectMultiples(parsing: "6205"))
        #expect(diagnosis.verdict == .notMeasurable)
        #expect(diagnosis.verdictText.hasPrefix("not measurable"))
        // Even the cage line, 0.398 × 1300 = 518 Hz, is past 500 Hz.
        for finding in diagnosis.findings {
            #expect(finding.harmonics.allSatisfy { $0.level == nil && $0.notMeasurable == .aboveNyquist(500) })
        }
    }

    @Test func aRecordingShorterThanTheDeepestLevelIsAClearError() throws {
        let bearing = try DefectMultiples(parsing: "6205")
        #expect(throws: KurtogramError.tooShort(count: 8000, levels: 6, minimum: 8192)) {
            try BearingDiagnosis.diagnose(
                [Double](repeating: 0.1, count: 8000), sampleRate: 25600, shaft: ShaftSpeed(hertz: 30),
                bearing: bearing)
        }
    }

    /// A 1 m/s² sine at 100 Hz is a velocity of 1/(2π·100)/√2 m/s r.m.s.; out of the 10-1000 Hz
    /// band it counts for nothing.
    @Test func recordingVelocityOfASine() throws {
        let fs = 25_600.0
        for (frequency, expected) in [(100.0, 1 / (2 * Double.pi * 100) / 2.0.squareRoot()), (3000.0, 0.0)] {
            let samples = (0..<102_400).map { sin(2 * Double.pi * frequency * Double($0) / fs) }
            let velocity = try #require(samples.withUnsafeBufferPointer { RecordingVelocity.rms($0, sampleRate: fs) })
            #expect(abs(velocity - expected) <= 0.01 * 1.1e-3, "\(frequency) Hz: \(velocity) m/s")
        }
        #expect(
            [Double](repeating: 0, count: 4).withUnsafeBufferPointer { RecordingVelocity.rms($0, sampleRate: fs) }
                == nil)
    }

    /// ISO 20816-3 Annex A, Tables A.1 and A.2: a boundary value belongs to the zone above.
    @Test func iso20816Zones() {
        let cases: [(Double, ISO20816Zone.MachineGroup, ISO20816Zone.Foundation, ISO20816Zone)] = [
            (1.0, .medium, .rigid, .a), (1.4, .medium, .rigid, .b), (2.79, .medium, .rigid, .b),
            (2.8, .medium, .rigid, .c), (4.5, .medium, .rigid, .d), (2.2, .medium, .flexible, .a),
            (7.0, .medium, .flexible, .c), (7.1, .medium, .flexible, .d), (2.2, .large, .rigid, .a),
            (4.4, .large, .rigid, .b), (7.1, .large, .rigid, .d), (3.4, .large, .flexible, .a),
            (10.9, .large, .flexible, .c), (11.0, .large, .flexible, .d), (0, .large, .flexible, .a),
        ]
        for (velocity, group, foundation, zone) in cases {
            #expect(
                ISO20816Zone(velocityRMS: velocity, group: group, foundation: foundation) == zone,
                "\(velocity) mm/s, group \(group.rawValue), \(foundation)")
        }
    }
}
