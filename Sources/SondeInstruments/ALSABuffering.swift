/// The period and buffer the hardware chose for a capture, read back from its hw params,
/// so the command line can say what latency to expect.
public struct ALSABuffering: Sendable, Equatable, CustomStringConvertible {
    /// Frames per period: the device wakes the reader once per period.
    public var periodFrames: Int
    /// Frames the device holds before it overruns (a whole number of periods, usually).
    public var bufferFrames: Int
    /// The capture's rate in Hz, to turn frames into seconds.
    public var sampleRate: Int

    public init(periodFrames: Int, bufferFrames: Int, sampleRate: Int) {
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.sampleRate = sampleRate
    }

    /// One period in seconds: the latency a sample waits before the reader sees it.
    public var periodSeconds: Double { Double(periodFrames) / Double(sampleRate) }
    /// The buffer in seconds: how long the reader may stall before samples are lost.
    public var bufferSeconds: Double { Double(bufferFrames) / Double(sampleRate) }

    /// "period 480 frames (10 ms), buffer 1920 frames (40 ms)".
    public var description: String {
        "period \(periodFrames) frames (\(Self.milliseconds(periodSeconds)) ms), "
            + "buffer \(bufferFrames) frames (\(Self.milliseconds(bufferSeconds)) ms)"
    }

    private static func milliseconds(_ seconds: Double) -> String {
        let value = (seconds * 10_000).rounded() / 10
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
