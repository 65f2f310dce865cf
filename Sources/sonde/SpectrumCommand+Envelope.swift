import ArgumentParser
import SondeCore
import SondeDSP
import SondeIO
import SondeKit

extension SpectrumCommand {
    /// `--envelope`: each input read whole, its channels' envelope spectra computed by
    /// `ChannelEnvelopeSpectrum` and written as one table per input.
    func runEnvelope() async throws {
        FreedMemoryPolicy.keepForReuse()
        try await reportingErrors {
            _ = try framing.settings()  // checks --window as `sonde spectrum` does
            let list = try inputList.sampleInputs(sampleType: input.sampleType)
            let options = input.sampleSourceOptions()
            let (outputPath, outputFormat) = try outputTarget(for: list)
            let choice = envelopeBand ?? .auto(levels: 6)  // validate() has read it
            let destination = try Self.destination(outputPath)
            do {
                let writer = SpectrumWriter(format: outputFormat, output: destination, includesFile: list.namesFiles)
                var notes: [String] = []
                for sampleInput in list.inputs {
                    if let unopenable = sampleInput.unopenable { throw SondeError(.invalidInput, unopenable) }
                    let source = try SampleSources.open(path: sampleInput.path, options: options)
                    let rate = source.format.sampleRate
                    let names = source.format.channelNames
                    let channels = try ChannelSamples.read(source, name: sampleInput.name)
                    let spectra: [ChannelEnvelopeSpectrum]
                    do {
                        spectra = try await ChannelEnvelopeSpectrum.compute(
                            channels, sampleRate: rate, band: choice, window: framing.window, jobs: engine.jobs)
                    } catch let failure as ChannelEnvelopeSpectrum.ChannelError {
                        throw SondeError(
                            .invalidInput,
                            "\(sampleInput.name), channel \(Self.name(names, failure.channel)): \(failure.error.description)"
                        )
                    }
                    for (index, spectrum) in spectra.enumerated() {
                        notes.append(
                            "\(sampleInput.name), channel \(Self.name(names, index)): \(Self.bandText(spectrum))")
                    }
                    let table = EnvelopeSpectrumTable(spectra.map(\.spectrum))
                    try writer.write(
                        file: sampleInput.name, channelNames: names, frequencies: table.frequencies,
                        power: table.density)
                }
                try writer.finish()
                try destination.commit()
                if !quiet { for note in notes { Diagnostics.note(note) } }
            } catch {
                destination.abandon()
                throw error
            }
        }
    }

    private static func name(_ names: [String], _ index: Int) -> String {
        index < names.count ? names[index] : "\(index + 1)"
    }

    /// "band 2400-3200 Hz (kurtogram level 3.5, kurtosis 2.6), 1.5625 Hz bins" or
    /// "band 2000-4000 Hz (given), 1.5625 Hz bins".
    static func bandText(_ spectrum: ChannelEnvelopeSpectrum) -> String {
        let how =
            spectrum.cell.map {
                "kurtogram level \($0.level.significantDigits(3)), kurtosis \($0.kurtosis.significantDigits(3))"
            } ?? "given"
        return "envelope of band \(spectrum.low.significantDigits(6))-\(spectrum.high.significantDigits(6)) Hz "
            + "(\(how)), \(spectrum.spectrum.resolution.significantDigits(6)) Hz bins"
    }
}
