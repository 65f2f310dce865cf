public import SondeCore

/// Consecutive frames' one-sided density PSD `P[k]` (docs/features.md section 5) of one channel
/// of one input. `power` points into the graph's buffers: valid only during
/// `SpectrumTap.receive`; copy what you keep.
public struct FrameSpectra {
    /// The input's index in the run.
    public var input: Int
    /// The input's name (its `file` column).
    public var inputName: String
    public var format: StreamFormat
    /// The channel's index in `format.channelNames`.
    public var channel: Int
    /// The index of the first frame (docs/features.md section 3).
    public var firstFrame: Int
    public var frameCount: Int
    /// N/2 + 1 bins per frame, bin k at `k * sampleRate / frameLength` Hz.
    public var binCount: Int
    /// N and H, in samples.
    public var frameLength: Int
    public var hop: Int
    /// `frameCount` rows of `binCount` values, row after row.
    public var power: UnsafeBufferPointer<Double>

    init(
        input: Int, inputName: String, format: StreamFormat, channel: Int, firstFrame: Int, frameCount: Int,
        frameLength: Int,
        hop: Int, power: UnsafeBufferPointer<Double>
    ) {
        self.input = input
        self.inputName = inputName
        self.format = format
        self.channel = channel
        self.firstFrame = firstFrame
        self.frameCount = frameCount
        self.binCount = frameLength / 2 + 1
        self.frameLength = frameLength
        self.hop = hop
        self.power = power
    }

    /// Frame `offset`'s spectrum (0 = `firstFrame`).
    public func frame(_ offset: Int) -> UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(rebasing: power[(offset * binCount)..<((offset + 1) * binCount)])
    }
}
