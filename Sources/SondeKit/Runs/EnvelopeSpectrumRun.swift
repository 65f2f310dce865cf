import SondeCore
public import SondeDSP
public import SondeIO

/// `sonde spectrum --envelope`: each input read whole, each channel's squared-envelope
/// spectrum of its band (docs/features.md section 9, the spectrum `sonde diagnose` reads)
/// computed on a task of its own, one table per input. The graph does not run: the band of
/// `EnvelopeBand.auto` comes from a kurtogram of the whole channel.
public struct EnvelopeSpectrumRun {
    public var inputs: SampleInputs
    public var sourceOptions: SampleSourceOptions
    /// The output file; nil for standard output.
    public var outputPath: String?
    /// `--format`; nil: from the output's extension, else CSV.
    public var format: SpectrumWriter.Format?
    public var band: EnvelopeBand
    /// N of `--window`: the resolution asked for is fs/N.
    public var window: Int
    public var jobs: Int
    /// No notes on standard error.
    public var quiet = false

    public init(
        inputs: SampleInputs, sourceOptions: SampleSourceOptions, outputPath: String?, format: SpectrumWriter.Format?,
        band: EnvelopeBand, window: Int, jobs: Int
    ) {
        self.inputs = inputs
        self.sourceOptions = sourceOptions
        self.outputPath = outputPath
        self.format = format
        self.band = band
        self.window = window
        self.jobs = jobs
    }

    /// Writes every input's table, then (unless quiet) a note per channel naming its band.
    /// - Throws: `SondeError(.invalidArgument)` when the output is one of the inputs;
    ///   `.invalidInput` naming the input (and the channel) that cannot be read or is too short.
    public func run() async throws {
        FreedMemoryPolicy.keepForReuse()
        try inputs.refuseOverwriting(outputPath)
        let outputFormat = format ?? outputPath.flatMap(SpectrumWriter.Format.init(inferredFrom:)) ?? .csv
        let destination = try OutputFile.fileOrStandardOutput(outputPath)
        do {
            let writer = SpectrumWriter(format: outputFormat, output: destination, includesFile: inputs.namesFiles)
            var notes: [String] = []
            for input in inputs.inputs {
                if let unopenable = input.unopenable { throw SondeError(.invalidInput, unopenable) }
                let source = try SampleSources.open(path: input.path, options: sourceOptions)
                let names = source.format.channelNames
                let channels = try ChannelSamples.read(source, name: input.name)
                let spectra: [ChannelEnvelopeSpectrum]
                do {
                    spectra = try await ChannelEnvelopeSpectrum.compute(
                        channels, sampleRate: source.format.sampleRate, band: band, window: window, jobs: jobs)
                } catch let failure as ChannelEnvelopeSpectrum.ChannelError {
                    throw SondeError(
                        .invalidInput,
                        "\(input.name), channel \(Self.name(names, failure.channel)): \(failure.error.description)")
                }
                for (index, spectrum) in spectra.enumerated() {
                    notes.append("\(input.name), channel \(Self.name(names, index)): \(Self.bandText(spectrum))")
                }
                let table = EnvelopeSpectrumTable(spectra.map(\.spectrum))
                try writer.write(
                    file: input.name, channelNames: names, frequencies: table.frequencies, power: table.density)
            }
            try writer.finish()
            try destination.commit()
            if !quiet { for note in notes { Diagnostics.note(note) } }
        } catch {
            destination.abandon()
            throw error
        }
    }

    private static func name(_ names: [String], _ index: Int) -> String {
        index < names.count ? names[index] : "\(index + 1)"
    }

    /// "envelope of band 2400-3200 Hz (kurtogram level 3.5, kurtosis 2.6), 1.5625 Hz bins" or
    /// "envelope of band 2000-4000 Hz (given), 1.5625 Hz bins".
    public static func bandText(_ spectrum: ChannelEnvelopeSpectrum) -> String {
        let how =
            spectrum.cell.map {
                "kurtogram level \($0.level.significantDigits(3)), kurtosis \($0.kurtosis.significantDigits(3))"
            } ?? "given"
        return "envelope of band \(spectrum.low.significantDigits(6))-\(spectrum.high.significantDigits(6)) Hz "
            + "(\(how)), \(spectrum.spectrum.resolution.significantDigits(6)) Hz bins"
    }
}
