import SondeCore
public import SondeDSP
public import SondeIO

/// `sonde kurtogram`'s work on one file: every channel read whole, its fast kurtogram
/// (Antoni's 1/3-binary grid), and the strongest line of the best band's squared-envelope
/// spectrum, which a bearing fault puts at its defect frequency.
public struct KurtogramRun: Sendable {
    /// One channel's answer.
    public struct Channel: Sendable {
        public let name: String
        public let kurtogram: Kurtogram
        /// The strongest envelope line above the lowest two bins (the envelope's slow
        /// drift); nil when the band has none.
        public let line: (frequency: Double, density: Double)?
    }

    public let file: String
    public let source: SampleSourceOptions
    /// Levels of the grid, 1 to 12.
    public let levels: Int

    public init(file: String, source: SampleSourceOptions, levels: Int) {
        self.file = file
        self.source = source
        self.levels = levels
    }

    /// Every channel's kurtogram, in the file's order.
    /// - Throws: `SondeError` naming the file (and the channel) for an unreadable input or
    ///   a channel too short for the grid.
    public func channels() throws -> [Channel] {
        FreedMemoryPolicy.keepForReuse()
        let opened = try SampleSources.open(path: file, options: source)
        let rate = opened.format.sampleRate
        let channels = try ChannelSamples.read(opened, name: file)
        return try channels.enumerated().map { index, samples in
            let name = opened.format.channelNames[index]
            do {
                // The best cell's band kept as the grid is computed, not filtered again.
                let (kurtogram, _, band) = try samples.withUnsafeBufferPointer {
                    try FastKurtogram.computeKeepingBest(
                        $0, sampleRate: rate, levels: levels, envelopeNyquistAtLeast: 0)
                }
                let spectrum = try SquaredEnvelopeSpectrum(band)
                let line = spectrum.peak(in: (2 * spectrum.resolution)...(band.sampleRate / 2))
                return Channel(name: name, kurtogram: kurtogram, line: line)
            } catch let error as KurtogramError {
                throw SondeError(.invalidInput, "\(file), channel \(name): \(error.description)")
            }
        }
    }
}
