public import SondeCore

/// Ends another source after a number of frames (`--duration`, `--frames`).
public final class LimitedSource: SampleSource {
    public var format: StreamFormat { base.format }
    public var notes: [String] { base.notes }
    public var expectedFrames: Int? { Swift.min(base.expectedFrames ?? limit, limit) }
    private let base: any SampleSource
    private let limit: Int
    private var delivered = 0

    /// - Parameter frames: interleaved frames to deliver at most.
    public init(base: any SampleSource, frames: Int) {
        self.base = base
        limit = frames
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let channels = format.channelCount
        let wanted = Swift.min(buffer.count / channels, limit - delivered)
        guard wanted > 0 else { return 0 }
        let frames = try base.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(wanted * channels)]))
        delivered += frames
        return frames
    }
}
