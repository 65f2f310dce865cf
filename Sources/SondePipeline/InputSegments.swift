/// How the graph cuts one long input into segments that are read, framed and measured side
/// by side, each by a stage of its own, and exported one after the other (issue 30: one
/// big file kept a reader and a framer busy on one thread each, 10-30% of a run's CPU).
///
/// A segment owns a run of whole windows: it starts at its first window (a hop earlier
/// when the frame before travels with it, for spectral flux) and ends with its last
/// window's last sample; the last segment reads to the input's end. Every window is then
/// measured on exactly the samples a sequential run gives it, so records are the same
/// bytes for any number of segments. Inputs with a filter are not cut: a filter's state
/// at a segment's start would depend on every sample before it.
struct InputSegments: Sendable {
    let count: Int
    let windowsPerSegment: Int
    let frameLength: Int
    let hop: Int
    /// Samples per channel before a segment's first window that travel with it.
    let leadingFrames: Int

    /// At most this many windows a segment, so the records a stage holds while it waits for
    /// the exporter stay a few megabytes however short the hop.
    static let maximumWindows = 8192

    /// Segments for an input of `frameCount` frames, or nil when it is not worth cutting:
    /// one job (nothing to run beside), a filter, or fewer than two segments' windows.
    /// - Parameter segmentSamples: samples (all channels) a segment reads, about
    ///   (`PipelineGraph.Options.segmentSamples`).
    init?(
        frameCount: Int, channelCount: Int, frameLength: Int, hop: Int, needsPreviousFrame: Bool, jobs: Int,
        filtered: Bool, segmentSamples: Int
    ) {
        guard jobs > 1, !filtered, frameCount >= frameLength, channelCount > 0, hop > 0 else { return nil }
        let windows = (frameCount - frameLength) / hop + 1
        let perSegment = Swift.max(1, Swift.min(Self.maximumWindows, segmentSamples / (channelCount * hop)))
        let count = (windows + perSegment - 1) / perSegment
        guard count >= 2 else { return nil }
        self.count = count
        windowsPerSegment = perSegment
        self.frameLength = frameLength
        self.hop = hop
        leadingFrames = needsPreviousFrame ? hop : 0
    }

    /// Memory the segments queued ahead of the exporter may hold, all together: it bounds
    /// how many there are, which with 16 of 8 channels each took a run to 290 MB.
    static let memoryBudget = 32 << 20

    /// Segments queued ahead of the exporter: one per two jobs, at most 16, fewer when a
    /// stage is large, and at least one. A segment's reading and framing (about 1.3 ns a
    /// sample) feed several workers measuring its frames, and every stage in flight is a
    /// few megabytes more to fault in: at two jobs, two ahead cost a mono run 6% more CPU
    /// than one (page faults 4,300 -> 10,600).
    /// - Parameter stageBytes: memory one segment's stage touches (`StageSizes.stageBytes`).
    static func segmentsAhead(jobs: Int, stageBytes: Int) -> Int {
        Swift.max(1, Swift.min(jobs / 2, maximumAhead, memoryBudget / Swift.max(1, stageBytes)))
    }

    static let maximumAhead = 16

    /// Segment `ordinal` (0 ..< count).
    func segment(_ ordinal: Int) -> InputSegment {
        let firstWindow = ordinal * windowsPerSegment
        let leading = ordinal == 0 ? 0 : leadingFrames
        let isLast = ordinal == count - 1
        return InputSegment(
            firstWindow: firstWindow, startFrame: firstWindow * hop - leading, leadingFrames: leading,
            frameLimit: isLast ? nil : leading + (windowsPerSegment - 1) * hop + frameLength,
            trailingFrames: isLast ? 0 : frameLength - hop)
    }
}

/// One segment of an input: where it starts, and what it reads. A whole input is the one
/// segment `.whole`.
struct InputSegment: Sendable {
    /// The index of its first window in the input.
    var firstWindow: Int
    /// The first frame it reads.
    var startFrame: Int
    /// Frames it reads before its first window (the frame before it, for spectral flux).
    var leadingFrames: Int
    /// Frames it reads at most; nil to the input's end.
    var frameLimit: Int?
    /// Frames it reads after its last window's start that the next segment reads again.
    var trailingFrames: Int

    static let whole = InputSegment(
        firstWindow: 0, startFrame: 0, leadingFrames: 0, frameLimit: nil, trailingFrames: 0)

    /// Frames of the input this segment accounts for (the input's are the sum): what it
    /// read, less what its neighbours read too.
    func ownFrames(read: Int) -> Int { Swift.max(0, read - leadingFrames - trailingFrames) }
}
