import Foundation
import Testing
import _SondeTestSupport

@testable import SondeDSP

/// The fast kurtogram, band signal and squared-envelope spectrum against the numpy/scipy
/// reference (Tests/Fixtures/kurtogram/reference_kurtogram.py) on synthetic bearing signals.
@Suite("Kurtogram")
struct KurtogramTests {
    /// Grid values: |ours - numpy| ≤ 1e-9 · (1 + |numpy|). Kurtosis is a ratio of sums over
    /// thousands of filtered samples; the two sides sum in different orders (numpy's convolve
    /// vs our fused loops), which moves the last bits: observed ≤ 3.3e-14.
    static let gridTolerance = 1e-9
    /// Envelope spectrum: |ours - numpy| ≤ 1e-9 of numpy's peak bin (observed ≤ 3.4e-15).
    static let envelopeTolerance = 1e-9

    @Test func prototypeTapsMatchScipy() throws {
        let reference = try KurtogramFixtures.reference()
        let ours: [String: [(re: Double, im: Double)]] = [
            "h": KurtogramFilterBank.lowHalf, "g": KurtogramFilterBank.highHalf,
            "h1": KurtogramFilterBank.thirds[0], "h2": KurtogramFilterBank.thirds[1],
            "h3": KurtogramFilterBank.thirds[2],
        ]
        for (name, taps) in reference.taps {
            let mine = try #require(ours[name])
            #expect(mine.count == taps.re.count)
            for index in mine.indices {
                #expect(abs(mine[index].re - taps.re[index]) <= 1e-15, "\(name)[\(index)]")
                #expect(abs(mine[index].im - taps.im[index]) <= 1e-15, "\(name)[\(index)]")
            }
        }
        #expect(FastKurtogram.minimumLength(levels: reference.nlevel) == reference.minimumLength)
    }

    @Test(arguments: KurtogramFixtures.signalNames)
    func gridAndBestCellMatchNumpy(_ name: String) throws {
        let (reference, signal, samples) = try KurtogramFixtures.load(name)
        let kurtogram = try FastKurtogram.compute(samples, sampleRate: reference.sampleRate, levels: reference.nlevel)
        try #require(kurtogram.rows.count == signal.grid.count)
        for (index, row) in kurtogram.rows.enumerated() {
            let expected = signal.grid[index]
            #expect(abs(row.level - expected.level) <= 1e-12)
            #expect(row.bandwidth == expected.bandwidthHz)
            try #require(row.values.count == expected.values.count)
            for (band, value) in row.values.enumerated() {
                let want = expected.values[band]
                #expect(abs(value - want) <= Self.gridTolerance * (1 + abs(want)), "row \(index) band \(band)")
            }
        }
        let best = kurtogram.best
        #expect(best.row == signal.best.row)
        #expect(best.band == signal.best.band)
        #expect(abs(best.centre - signal.best.centreHz) <= 1e-9)
        #expect(abs(best.bandwidth - signal.best.bandwidthHz) <= 1e-9)
    }

    @Test(arguments: KurtogramFixtures.signalNames)
    func bandSignalAndEnvelopeSpectrumMatchNumpy(_ name: String) throws {
        let (reference, signal, samples) = try KurtogramFixtures.load(name)
        let band = try FastKurtogram.bandSignal(
            samples, sampleRate: reference.sampleRate, row: signal.best.row, band: signal.best.band)
        #expect(band.samples.count == signal.bandSignal.count)
        #expect(band.sampleRate == signal.bandSignal.sampleRate)
        // The band signal is the node whose kurtosis is the cell's value.
        let kurtosis = band.samples.withUnsafeBufferPointer {
            KurtogramFilterBank.complexKurtosis($0.baseAddress!, count: $0.count, floor: 0)
        }
        #expect(abs(kurtosis - signal.best.kurtosis) <= Self.gridTolerance * (1 + abs(signal.best.kurtosis)))
        let spectrum = try SquaredEnvelopeSpectrum(band)
        #expect(spectrum.segmentLength == signal.envelope.segmentLength)
        #expect(abs(spectrum.resolution - signal.envelope.resolutionHz) <= 1e-12)
        try #require(spectrum.density.count == signal.envelope.psd.count)
        let peak = try #require(signal.envelope.psd.max())
        for (bin, value) in spectrum.density.enumerated() {
            #expect(abs(value - signal.envelope.psd[bin]) <= Self.envelopeTolerance * peak, "bin \(bin)")
        }
    }

    /// Every faulty signal, at every SNR of the fixtures: the best band contains the 3 kHz
    /// resonance and is no wider than fs/8, and the envelope spectrum's largest line above
    /// 1.5 × shaft speed is within ±2% of the defect frequency.
    @Test(arguments: KurtogramFixtures.faultyNames)
    func findsTheResonanceAndTheDefectLine(_ name: String) throws {
        let (reference, signal, samples) = try KurtogramFixtures.load(name)
        let defect = try #require(signal.defectHz)
        let best = try FastKurtogram.compute(samples, sampleRate: reference.sampleRate, levels: reference.nlevel).best
        #expect(best.centre - best.bandwidth / 2 <= reference.resonanceHz)
        #expect(reference.resonanceHz <= best.centre + best.bandwidth / 2)
        #expect(best.bandwidth <= reference.sampleRate / 8)
        let band = try FastKurtogram.bandSignal(
            samples, sampleRate: reference.sampleRate, row: best.row, band: best.band)
        let spectrum = try SquaredEnvelopeSpectrum(band)
        let line = try #require(spectrum.peak(in: (1.5 * reference.shaftHz)...(spectrum.sampleRate / 2)))
        #expect(abs(line.frequency - defect) <= 0.02 * defect, "line at \(line.frequency) Hz, defect \(defect) Hz")
    }

    @Test func tooShortARecordIsAClearError() throws {
        let minimum = FastKurtogram.minimumLength(levels: 6)
        #expect(minimum == 8192)
        let error = #expect(throws: KurtogramError.self) {
            try FastKurtogram.compute([Double](repeating: 0.5, count: minimum - 1), sampleRate: 25600, levels: 6)
        }
        #expect(error == .tooShort(count: 8191, levels: 6, minimum: 8192))
        #expect(error?.description.contains("needs at least 8192") == true)
        _ = try FastKurtogram.compute([Double](repeating: 0.5, count: minimum), sampleRate: 25600, levels: 6)
        #expect(throws: KurtogramError.tooShort(count: 1000, levels: 3, minimum: 1024)) {
            try FastKurtogram.bandSignal([Double](repeating: 0, count: 1000), sampleRate: 1000, row: 5, band: 0)
        }
    }

    @Test func invalidArgumentsAreRejected() throws {
        let samples = (0..<4096).map { sin(Double($0) * 0.3) }
        #expect(throws: KurtogramError.invalidLevels(0)) {
            try FastKurtogram.compute(samples, sampleRate: 1000, levels: 0)
        }
        #expect(throws: KurtogramError.invalidSampleRate(0)) {
            try FastKurtogram.compute(samples, sampleRate: 0, levels: 3)
        }
        var withNaN = samples
        withNaN[17] = .nan
        #expect(throws: KurtogramError.nonFiniteSample(index: 17)) {
            try FastKurtogram.compute(withNaN, sampleRate: 1000, levels: 3)
        }
        #expect(throws: KurtogramError.invalidCell(row: 3, band: 4)) {
            try FastKurtogram.bandSignal(samples, sampleRate: 1000, row: 3, band: 4)
        }
        let band = try FastKurtogram.bandSignal(samples, sampleRate: 1000, row: 3, band: 1)
        #expect(throws: KurtogramError.invalidSegmentLength(100, count: band.samples.count)) {
            try SquaredEnvelopeSpectrum(band, segmentLength: 100)
        }
    }

    /// A silent (all-zero) signal has no band: every cell is 0 (the silent-band rule), and the
    /// tie goes to the coarsest row's first band. (A constant is not silent: the -50 dB
    /// stopbands leak it into the high bands as a tone, K = -1.)
    @Test func silentBandsAreZeroAndTiesGoToTheCoarsestCell() throws {
        let kurtogram = try FastKurtogram.compute([Double](repeating: 0, count: 4096), sampleRate: 1000, levels: 5)
        #expect(kurtogram.rows.count == 10)
        #expect(kurtogram.rows.map(\.values.count) == [1, 2, 3, 4, 6, 8, 12, 16, 24, 32])
        #expect(kurtogram.rows.allSatisfy { $0.values.allSatisfy { $0 == 0 } })
        #expect(kurtogram.best.row == 0 && kurtogram.best.band == 0)
    }
}

/// reference.json and the raw signals beside it.
enum KurtogramFixtures {
    struct Reference: Decodable {
        struct Taps: Decodable {
            let re: [Double]
            let im: [Double]
        }
        struct Row: Decodable {
            let level: Double
            let bandwidthHz: Double
            let values: [Double]
        }
        struct Best: Decodable {
            let row: Int
            let band: Int
            let centreHz: Double
            let bandwidthHz: Double
            let kurtosis: Double
        }
        struct BandSignal: Decodable {
            let sampleRate: Double
            let count: Int
        }
        struct Envelope: Decodable {
            let segmentLength: Int
            let resolutionHz: Double
            let psd: [Double]
        }
        struct Signal: Decodable {
            let name: String
            let file: String
            let count: Int
            let defectHz: Double?
            let grid: [Row]
            let best: Best
            let bandSignal: BandSignal
            let envelope: Envelope
        }
        let sampleRate: Double
        let nlevel: Int
        let shaftHz: Double
        let resonanceHz: Double
        let minimumLength: Int
        let taps: [String: Taps]
        let signals: [Signal]
    }

    static let signalNames = ["outer_snr_m5", "outer_snr_m12", "inner_snr_m5", "inner_snr_m12", "healthy"]
    static let faultyNames = ["outer_snr_m5", "outer_snr_m12", "inner_snr_m5", "inner_snr_m12"]

    static func reference() throws -> Reference {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Reference.self, from: Fixtures.data("kurtogram/reference.json"))
    }

    static func load(_ name: String) throws -> (Reference, Reference.Signal, [Double]) {
        let reference = try reference()
        let signal = try #require(reference.signals.first { $0.name == name })
        let bytes = try Fixtures.data("kurtogram/" + signal.file)
        let samples = bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 8)).map {
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
            }
        }
        try #require(samples.count == signal.count)
        return (reference, signal, samples)
    }
}
