public import SondeCore

/// A `SampleSource` that hands out interleaved samples already in memory, so a pipeline
/// benchmark measures the pipeline and not a reader.
public final class MemorySampleSource: SampleSource {
    public let format: StreamFormat
    public let notes: [String] = []
    private let samples: [Double]
    private let channels: Int
    private var position = 0

    /// - Parameters:
    ///   - samples: interleaved frames; a multiple of `channels` long.
    ///   - channels: 1 or more.
    public init(samples: [Double], channels: Int, sampleRate: Double = Workload.sampleRate) {
        precondition(samples.count % channels == 0, "samples must hold whole frames")
        self.samples = samples
        self.channels = channels
        format = StreamFormat(sampleRate: sampleRate, channelNames: (0..<channels).map { "ch\($0)" })
    }

    public var expectedFrames: Int? { samples.count / channels }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let count = Swift.min(buffer.count, samples.count - position) / channels * channels
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        samples.withUnsafeBufferPointer { source in
            destination.update(from: source.baseAddress! + position, count: count)
        }
        position += count
        return count / channels
    }
}
