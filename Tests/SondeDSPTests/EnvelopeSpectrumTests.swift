import Foundation
import SondeDSP
import Testing
import _SondeTestSupport

/// `sonde spectrum --envelope`'s library: the envelope spectrum of the kurtogram's best band
/// and of a band given, against the numpy/scipy reference
/// (Tests/Fixtures/kurtogram/generate_envelope_spectrum.py), bit for bit the same as the
/// kurtogram-and-diagnose path for the same band, the table that merges channels of different
/// bands, and the errors.
@Suite struct EnvelopeSpectrumTests {
    /// The kurtogram tests' envelope tolerance, of the spectrum's peak.
    static let tolerance = 1e-9

    struct Reference: Decodable {
        struct Case: Decodable {
            let band: String
            let window: Int
            let lowHz: Double
            let highHz: Double
            let bandRateHz: Double
            let segmentLength: Int
            let frequencyHz: [Double]
            let psd: [Double]
        }
        let signal: String
        let sampleRate: Double
        let nlevel: Int
        let cases: [Case]
    }

    static func reference() throws -> Reference {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Reference.self, from: Fixtures.data("kurtogram/envelope_spectrum.json"))
    }

    @Test func matchesTheNumpyReference() throws {
        let reference = try Self.reference()
        let (_, _, samples) = try KurtogramFixtures.load("outer_snr_m5")
        try #require(reference.cases.count == 3)
        for item in reference.cases {
            let band = try #require(EnvelopeBand(parsing: item.band, levels: reference.nlevel))
            let result = try samples.withUnsafeBufferPointer {
                try ChannelEnvelopeSpectrum($0, sampleRate: reference.sampleRate, band: band, window: item.window)
            }
            #expect(result.low == item.lowHz && result.high == item.highHz, "\(item.band)")
            #expect(result.spectrum.sampleRate == item.bandRateHz, "\(item.band)")
            #expect(result.spectrum.segmentLength == item.segmentLength, "\(item.band) \(item.window)")
            try #require(result.spectrum.density.count == item.psd.count)
            let peak = try #require(item.psd.max())
            for (bin, value) in result.spectrum.density.enumerated() {
                #expect(
                    abs(value - item.psd[bin]) <= Self.tolerance * peak, "\(item.band) \(item.window) bin \(bin)")
                #expect(Double(bin) * result.spectrum.resolution == item.frequencyHz[bin])
            }
        }
    }

    /// `--band auto` is the diagnosis's own code: the kurtogram, its best cell's band signal and
    /// `SquaredEnvelopeSpectrum`, to the bit.
    @Test func autoIsTheKurtogramPathBitForBit() throws {
        let (reference, _, samples) = try KurtogramFixtures.load("outer_snr_m5")
        let kurtogram = try FastKurtogram.compute(samples, sampleRate: reference.sampleRate, levels: 6)
        let best = kurtogram.best
        let signal = try FastKurtogram.bandSignal(
            samples, sampleRate: reference.sampleRate, row: best.row, band: best.band)
        let direct = try SquaredEnvelopeSpectrum(signal, segmentLength: 1024)
        let result = try samples.withUnsafeBufferPointer {
            try ChannelEnvelopeSpectrum($0, sampleRate: reference.sampleRate, band: .auto(levels: 6), window: 16384)
        }
        #expect(result.cell == best)
        #expect(result.spectrum == direct)
    }

    @Test func channelsComputeInOrderForAnyJobs() async throws {
        let (reference, _, samples) = try KurtogramFixtures.load("outer_snr_m5")
        let channels = [samples, samples.map { 2 * $0 }, Array(samples.reversed())]
        let one = try await ChannelEnvelopeSpectrum.compute(
            channels, sampleRate: reference.sampleRate, band: .auto(levels: 6), window: 4096, jobs: 1)
        let three = try await ChannelEnvelopeSpectrum.compute(
            channels, sampleRate: reference.sampleRate, band: .auto(levels: 6), window: 4096, jobs: 3)
        #expect(one == three)
        // Twice the samples: the same band, 16 times the density (|2c|⁴), exactly.
        #expect(one[1].cell == one[0].cell)
        #expect(one[1].spectrum.density == one[0].spectrum.density.map { 16 * $0 })
    }

    @Test func tableMergesBinsOfDifferentBands() throws {
        let (reference, _, samples) = try KurtogramFixtures.load("outer_snr_m5")
        let fs = reference.sampleRate
        // Rates fs/16 (the best cell) and fs: the same 25 Hz bins up to 800 Hz, then only the second.
        let auto = try samples.withUnsafeBufferPointer {
            try ChannelEnvelopeSpectrum($0, sampleRate: fs, band: .auto(levels: 6), window: 1024)
        }
        let given = try samples.withUnsafeBufferPointer {
            try ChannelEnvelopeSpectrum($0, sampleRate: fs, band: .range(low: 2000, high: 4000), window: 1024)
        }
        let table = EnvelopeSpectrumTable([auto.spectrum, given.spectrum])
        #expect(table.frequencies == (0...512).map { Double($0) * 25 })
        #expect(Array(table.density[0][0...32]) == auto.spectrum.density)
        let past = table.density[0][33...]
        #expect(past.allSatisfy { $0.isNaN })
        #expect(table.density[1] == given.spectrum.density)
    }

    @Test func badBandsAndShortInputsAreErrors() throws {
        let (reference, _, samples) = try KurtogramFixtures.load("outer_snr_m5")
        let fs = reference.sampleRate
        #expect(throws: KurtogramError.invalidBand(low: 2000, high: 13000, nyquist: 12800)) {
            try samples.withUnsafeBufferPointer {
                try ChannelEnvelopeSpectrum($0, sampleRate: fs, band: .range(low: 2000, high: 13000), window: 1024)
            }
        }
        let short = Array(samples[0..<1500])
        #expect(throws: KurtogramError.tooShortForEnvelope(count: 1500, segmentLength: 1024)) {
            try short.withUnsafeBufferPointer {
                try ChannelEnvelopeSpectrum($0, sampleRate: fs, band: .range(low: 2000, high: 4000), window: 1024)
            }
        }
        #expect(throws: KurtogramError.tooShort(count: 1500, levels: 6, minimum: 8192)) {
            try short.withUnsafeBufferPointer {
                try ChannelEnvelopeSpectrum($0, sampleRate: fs, band: .auto(levels: 6), window: 1024)
            }
        }
        #expect(EnvelopeBand(parsing: "auto", levels: 4) == .auto(levels: 4))
        #expect(EnvelopeBand(parsing: "12.5-40", levels: 6) == .range(low: 12.5, high: 40))
        #expect(EnvelopeBand(parsing: "2000", levels: 6) == nil)
        #expect(EnvelopeBand(parsing: "a-b", levels: 6) == nil)
    }
}
