public import SondeCore

/// Passes another source's samples through unchanged and copies each block into a
/// `RecentSamples` ring on the way: the graph's sample tap for a live screen's waveform.
/// The copy never waits on the screen (`RecentSamples` drops the oldest).
public final class SampleTapSource: SampleSource {
    public var format: StreamFormat { base.format }
    public var notes: [String] { base.notes }
    public var expectedFrames: Int? { base.expectedFrames }
    private let base: any SampleSource
    private let recent: RecentSamples

    /// - Parameter recent: the ring, with the base's channel count.
    public init(base: any SampleSource, into recent: RecentSamples) {
        self.base = base
        self.recent = recent
    }

    public func read(into buffer: UnsafeMutableBufferPointer<Double>) throws -> Int {
        let frames = try base.read(into: buffer)
        if frames > 0 { recent.append(UnsafeBufferPointer(buffer), frames: frames) }
        return frames
    }
}
