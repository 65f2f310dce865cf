public import SondeCore

/// Replays the first `frames` frames of a source over and over, as fast as asked.
public final class ReplayedDevice: SampleSource {
    public let format: StreamFormat
    public let notes: [String] = []
    private let samples: [Double]
    private var position = 0

    public init(_ device: any SampleSource, frames: Int) throws {
        format = device.format
        var samples = [Double](repeating: 0, count: frames * device.format.channelCount)
        let read = try samples.withUnsafeMutableBufferPointer { try device.read(into: $0) }
        self.samples = Array(samples.prefix(read * device.format.channelCount))
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        let frames = buffer.count / channels
        var written = 0
        samples.withUnsafeBufferPointer { loop in
            while written < frames * channels {
                let take = Swift.min(frames * channels - written, loop.count - position)
                _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<(written + take)]).update(
                    fromContentsOf: loop[position..<(position + take)])
                written += take
                position = (position + take) % loop.count
            }
        }
        return frames
    }
}
