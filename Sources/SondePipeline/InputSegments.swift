/// How the graph cuts one long input into segments that are read, framed and measured side
/// by side, each by a stage of its own, and exported one after the other (issue 30: one
/// big file kept a reader and a framer busy on one thread each, 10-30% of a run's CPU).
///
/// A segment owns a run of whole windows: it starts at its first window (a hop earlier
/// when the frame before travels with it, for spectral flux) and ends with its last
/// window's last sample; the last segment reads to the input's end. Every window is then
/// measured on exactly the samples a sequential run gives it, so records are the same
/// bytes for any number of segments.
///
/// A filtered input (issue 49) is cut into pieces of `pieceLength` frames counted from frame
/// 0, each filtered from its start state (`PiecewiseFilterCursor`, `PieceStates`). Its
/// segments then start at the first window at or after a multiple of whole pieces, and
/// read from that piece's start: the frames before the segment's own (at most a hop and
/// the leading frame, unless a window is longer than a piece) are filtered and dropped, so
/// the windows see the samples of one sequential run.
struct InputSegments: Sendable {
    let count: Int
    /// Windows a segment, about (exactly, without a filter).
    let windowsPerSegment: Int
    let frameLength: Int
    let hop: Int
    /// Samples per channel before a segment's first window that travel with it.
    let leadingFrames: Int
    /// Windows in the input.
    let windows: Int
    /// Frames of whole pieces a segment starts after (`k` times this, for segment `k`);
    /// nil without a filter.
    let piecesFrames: Int?
    /// The filter's piece length; nil without a filter.
    let pieceLength: Int?

    /// At most this many windows a segment, so the records a stage holds while it waits for
    /// the exporter stay a few megabytes however short the hop.
    static let maximumWindows = 8192

    /// Segments for an input of `frameCount` frames, or nil when it is not worth cutting:
    /// one job (nothing to run beside), or fewer than two segments' windows.
    /// - Parameters:
    ///   - pieceLength: the filter's piece length (`PipelineSettings.filterPieceLength`);
    ///     nil without a filter.
    ///   - segmentSamples: samples (all channels) a segment reads, about
    ///     (`PipelineGraph.Options.segmentSamples`).
    init?(
        frameCount: Int, channelCount: Int, frameLength: Int, hop: Int, needsPreviousFrame: Bool, jobs: Int,
        pieceLength: Int? = nil, segmentSamples: Int
    ) {
        guard jobs > 1, frameCount >= frameLength, channelCount > 0, hop > 0 else { return nil }
        let windows = (frameCount - frameLength) / hop + 1
        let perSegment = Swift.max(1, Swift.min(Self.maximumWindows, segmentSamples / (channelCount * hop)))
        self.windows = windows
        windowsPerSegment = perSegment
        self.frameLength = frameLength
        self.hop = hop
        leadingFrames = needsPreviousFrame ? hop : 0
        self.pieceLength = pieceLength
        if let pieceLength {
            // Whole pieces a segment, the nearest to `perSegment` windows, and at least a hop
            // (so that every segment has a window of its own).
            let pieces = Swift.max(
                1, (perSegment * hop + pieceLength / 2) / pieceLength, (hop + pieceLength - 1) / pieceLength)
            piecesFrames = pieces * pieceLength
        } else {
            piecesFrames = nil
        }
        var count = 1
        while Self.firstWindow(
            count, piecesFrames: piecesFrames, perSegment: perSegment, hop: hop,
            leading: leadingFrames) < windows
        {
            count += 1
        }
        guard count >= 2 else { return nil }
        self.count = count
    }

    /// The first window of segment `ordinal`: every `perSegment` windows, or with a filter
    /// the first whose frames (with the leading ones) start at or after `ordinal` times
    /// `piecesFrames`.
    private static func firstWindow(
        _ ordinal: Int, piecesFrames: Int?, perSegment: Int, hop: Int, leading: Int
    )
        -> Int
    {
        guard ordinal > 0 else { return 0 }
        guard let piecesFrames else { return ordinal * perSegment }
        return (ordinal * piecesFrames + leading + hop - 1) / hop
    }

    private func firstWindow(_ ordinal: Int) -> Int {
        Swift.min(
            windows,
            Self.firstWindow(
                ordinal, piecesFrames: piecesFrames, perSegment: windowsPerSegment, hop: hop, leading: leadingFrames))
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
        let first = firstWindow(ordinal)
        let ownWindows = firstWindow(ordinal + 1) - first
        let leading = ordinal == 0 ? 0 : leadingFrames
        let isLast = ordinal == count - 1
        let startFrame = first * hop - leading
        // A filtered segment reads from the start of the piece its first frame is in.
        let discarded = pieceLength.map { startFrame % $0 } ?? 0
        return InputSegment(
            firstWindow: first, startFrame: startFrame, leadingFrames: leading,
            frameLimit: isLast ? nil : discarded + leading + (ownWindows - 1) * hop + frameLength,
            trailingFrames: isLast ? 0 : frameLength - hop, discardedFrames: discarded)
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
    /// Frames it reads before `startFrame`, from the start of the filter's piece, only to
    /// filter them (dropped before framing).
    var discardedFrames = 0

    static let whole = InputSegment(
        firstWindow: 0, startFrame: 0, leadingFrames: 0, frameLimit: nil, trailingFrames: 0)

    /// The first frame it reads: `startFrame`, or the start of its piece with a filter.
    var readStart: Int { startFrame - discardedFrames }

    /// Frames of the input this segment accounts for (the input's are the sum): what it
    /// read, less what its neighbours read too.
    func ownFrames(read: Int) -> Int { Swift.max(0, read - discardedFrames - leadingFrames - trailingFrames) }
}
