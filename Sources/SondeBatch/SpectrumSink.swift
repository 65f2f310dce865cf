public import SondeCore
public import SondeIO
public import SondePipeline

/// Writes each input's averaged spectrum (docs/features.md section 8) once its last frame has
/// gone through the averager: the sink of `sonde spectrum`. Records are not written.
public final class SpectrumSink: PipelineSink {
    private let averager: SpectrumAverager
    private let writer: SpectrumWriter
    private let frameLength: Int
    public private(set) var notes: [String] = []

    /// - Parameter averager: the spectrum tap of the same run.
    public init(averager: SpectrumAverager, writer: SpectrumWriter, frameLength: Int) {
        self.averager = averager
        self.writer = writer
        self.frameLength = frameLength
    }

    public func begin(input index: Int, name: String, format: StreamFormat) throws {}

    public func write(_ batch: RecordBatch) throws {}

    /// - Throws: `SondeError(.invalidInput)` for an input shorter than one window: an
    ///   average of no frames has no value, and silence would read as success.
    public func end(input index: Int, name: String, outcome: PipelineGraph.InputOutcome) throws {
        switch outcome {
        case .failed(let error):
            throw error
        case .finished(let summary):
            notes += summary.notes
            guard let average = averager.take(input: index) else {
                throw SondeError(
                    .invalidInput,
                    "\(name): \(summary.samplesPerChannel) samples per channel, fewer than one window of \(frameLength): no spectrum (try a shorter --window)"
                )
            }
            try writer.write(
                file: name, channelNames: average.format.channelNames, frequencies: average.frequencies,
                power: average.power)
        }
    }

    /// Ends the table; the caller commits the output.
    public func finish() throws {
        try writer.finish()
    }
}
