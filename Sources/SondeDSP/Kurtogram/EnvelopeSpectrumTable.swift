/// Channels' envelope spectra as one table, a row per frequency: the kurtogram can pick
/// bands of different rates for different channels, so their bins need not coincide.
public struct EnvelopeSpectrumTable: Sendable, Equatable {
    /// Every channel's bin frequencies (i · resolution, Hz), ascending, each once.
    public let frequencies: [Double]
    /// Per channel, one density per frequency; NaN where the channel has no bin at it (another
    /// resolution, or past its band signal's Nyquist frequency).
    public let density: [[Double]]

    /// Merges bins by exact frequency: bands whose rates differ by a power of two share every
    /// bin of the coarser grid (`ChannelEnvelopeSpectrum.segmentLength`), a third-band's
    /// generally do not.
    public init(_ spectra: [SquaredEnvelopeSpectrum]) {
        var all = Set<Double>()
        for spectrum in spectra {
            for bin in spectrum.density.indices {
                all.insert(Double(bin) * spectrum.resolution)
            }
        }
        frequencies = all.sorted()
        var row = [Double: Int]()
        for (index, frequency) in frequencies.enumerated() {
            row[frequency] = index
        }
        density = spectra.map { spectrum in
            var column = [Double](repeating: .nan, count: row.count)
            for (bin, value) in spectrum.density.enumerated() {
                if let index = row[Double(bin) * spectrum.resolution] { column[index] = value }
            }
            return column
        }
    }
}
