public import SondeCore
public import SondeIO
public import SondePipeline
import SondePlots

/// Per input (its index and name), each channel's envelope spectrum figure (nil for a channel without one, as a tachometer).
public typealias EnvelopeFigures = @Sendable (Int, String) throws -> [ReportEnvelope?]

/// Builds the report of a `sonde report` run as the graph delivers it: per input, every
/// value column's summary and the chosen columns' trends from the records, the spectra
/// from `ReportSpectra`; each input's section is written when that input ends, so memory
/// holds one input's figures at a time whatever the input's length.
public final class ReportSink: PipelineSink {
    private let output: OutputFile
    private let spectra: ReportSpectra
    private let columns: [String]
    private let trended: [String]
    private let bands: [ClosedRange<Double>]
    private let figures: ReportFigures?
    private let frameLength: Int
    private let envelopes: EnvelopeFigures?
    private var format = StreamFormat(sampleRate: 1, channelNames: [])
    private var statistics: RecordStatistics?
    public private(set) var notes: [String] = []

    /// - Parameters:
    ///   - output: receives `head` now, a section per input, and the tail at `finish()`.
    ///   - columns: the records' value columns.
    ///   - trended: the columns drawn over time, a subset of `columns`.
    ///   - bands: frequency bands to mark on the spectra, in Hz.
    ///   - figures: also writes each figure as its own file.
    ///   - envelopes: per input (index, name), one envelope figure per channel (nil for none); it
    ///     reads the input whole, which the streamed records never do.
    public init(
        output: OutputFile, head: String, spectra: ReportSpectra, columns: [String], trended: [String],
        bands: [ClosedRange<Double>], figures: ReportFigures?, frameLength: Int, envelopes: EnvelopeFigures? = nil
    ) throws {
        self.envelopes = envelopes
        self.output = output
        self.spectra = spectra
        self.columns = columns
        self.trended = trended
        self.bands = bands
        self.figures = figures
        self.frameLength = frameLength
        try output.write(Array(head.utf8))
    }

    public func begin(input index: Int, name: String, format: StreamFormat) throws {
        self.format = format
        statistics = RecordStatistics(channelCount: format.channelCount, columns: columns, trended: trended)
    }

    public func write(_ batch: RecordBatch) throws {
        statistics?.add(batch)
    }

    /// - Throws: an input's own error, or `SondeError(.invalidInput)` for an input shorter
    ///   than one window (a report of no frames would show nothing).
    public func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {
        guard case .finished(let summary) = outcome else {
            if case .failed(let error) = outcome { throw error }
            return
        }
        notes += summary.notes
        guard let inputSpectra = spectra.take(input: index) else {
            throw SondeError(
                .invalidInput,
                "\(name): \(summary.samplesPerChannel) samples per channel, fewer than one window of \(frameLength): nothing to report (try a shorter --window)"
            )
        }
        let fs = format.sampleRate
        let frequencies = (0...(inputSpectra.frameLength / 2)).map {
            Double($0) * fs / Double(inputSpectra.frameLength)
        }
        let envelopeFigures = try envelopes?(index, name)
        var channels = format.channelNames.enumerated().map { channel, channelName in
            InputReport.Channel(
                name: channelName,
                spectrogram: SpectrogramPlot(
                    title: "Spectrogram, \(channelName)", spectrogram: inputSpectra.spectrograms[channel],
                    sampleRate: fs,
                    frameLength: inputSpectra.frameLength, hop: inputSpectra.hop, startTime: format.timeOffset),
                spectrum: SpectrumPlot(
                    title: "Averaged spectrum (Welch, \(inputSpectra.frames) windows), \(channelName)",
                    frequencies: frequencies,
                    power: inputSpectra.average[channel], bands: bands),
                trends: statistics?.trendPlots(
                    channel: channel, secondsPerFrame: Double(inputSpectra.hop) / fs, startTime: format.timeOffset)
                    ?? [],
                summary: statistics?.summary(channel: channel) ?? [])
        }
        for channel in channels.indices where channel < (envelopeFigures?.count ?? 0) {
            guard let figure = envelopeFigures?[channel] else { continue }
            channels[channel].envelope = EnvelopeSpectrumPlot(
                title: figure.title, frequencies: figure.frequencies, density: figure.density,
                defects: figure.defects)
            channels[channel].bearing = figure.diagnosis
        }
        let seconds = Double(summary.samplesPerChannel) / fs
        let report = InputReport(
            title: name,
            details: [
                ("Sample rate", "\(fs.compactDescription) Hz"),
                ("Channels", format.channelNames.joined(separator: ", ")),
                ("Samples per channel", "\(summary.samplesPerChannel) (\(ReportNumber.text(seconds)) s)"),
                ("Windows", "\(summary.frames)"),
            ] + (statistics.map { [$0.percentileDetail] } ?? []) + summary.notes.map { ("Note", $0) },
            channels: channels)
        try output.write(Array(ReportHTML.section(report, anchor: "input-\(index + 1)").utf8))
        try figures?.write(report, number: index + 1)
        statistics = nil
    }

    /// Ends the page; the caller commits the output.
    public func finish() throws {
        try output.write(Array(ReportHTML.tail.utf8))
    }
}
