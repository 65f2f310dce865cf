import SondeCore
import SondeDSP

@testable import SondePipeline

/// Turns one source's interleaved blocks into record batches: every channel filtered,
/// framed and measured with the same settings.
final class SourceProcessor {
    let format: StreamFormat
    let settings: PipelineSettings
    let fileName: String
    /// Interleaved frames per block fed to `process(interleaved:)`.
    let maximumBlock: Int
    private let channels: [ChannelProcessor]
    private let columnCount: Int
    private var nextFrame = 0

    /// Designs the filters and feature configuration for the source's rate.
    /// - Throws: `SondeError(.invalidArgument)` for filters or bands that do not fit the rate,
    ///   before any sample is processed.
    init(format: StreamFormat, settings: PipelineSettings, fileName: String, maximumBlock: Int = 65_536) throws {
        let configuration = try settings.featureConfiguration(sampleRate: format.sampleRate)
        let filter = try settings.pieceFilter(sampleRate: format.sampleRate)
        self.format = format
        self.settings = settings
        self.fileName = fileName
        self.maximumBlock = maximumBlock
        columnCount = configuration.columnCount
        channels = format.channelNames.map { _ in
            ChannelProcessor(
                filter: filter.map { PiecewiseFilterCursor($0) },
                extractor: FeatureExtractor(configuration: configuration),
                frameLength: settings.frameLength,
                hop: settings.hop,
                maximumBlock: maximumBlock
            )
        }
    }

    /// Consumes one block of whole interleaved frames (at most `maximumBlock`) and returns the
    /// records of every frame it completed, or nil when it completed none.
    func process(interleaved block: UnsafeBufferPointer<Double>) -> RecordBatch? {
        let channelCount = channels.count
        for (index, channel) in channels.enumerated() {
            channel.append(interleaved: block, channel: index, channelCount: channelCount)
        }
        let frameCount = channels.first?.completeFrames ?? 0
        guard frameCount > 0 else { return nil }
        var values = [Double](repeating: 0, count: frameCount * channelCount * columnCount)
        values.withUnsafeMutableBufferPointer { values in
            for frame in 0..<frameCount {
                for (index, channel) in channels.enumerated() {
                    let base = (frame * channelCount + index) * columnCount
                    channel.extractFrame(
                        frame, into: UnsafeMutableBufferPointer(rebasing: values[base..<(base + columnCount)]))
                }
            }
        }
        for channel in channels { channel.discardFrames(frameCount) }
        let batch = RecordBatch(
            fileName: fileName,
            channelNames: format.channelNames,
            columnCount: columnCount,
            firstFrame: nextFrame,
            frameCount: frameCount,
            hop: settings.hop,
            clock: .seconds(sampleRate: format.sampleRate, offset: format.timeOffset),
            values: values
        )
        nextFrame += frameCount
        return batch
    }

    /// Frames measured so far.
    var framesEmitted: Int { nextFrame }
}
