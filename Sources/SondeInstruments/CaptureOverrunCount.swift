import Synchronization

/// A capture device's overruns (ALSA xruns): how many, and the frames they lost, counted by
/// the reading thread and readable from any other (for `/metrics`), as `DroppedFrameCount`
/// is for `--on-overrun`.
///
/// Why a count and not a gap of zeros: silence would look like signal to every feature.
public final class CaptureOverrunCount: Sendable {
    private let eventCount = Atomic<Int>(0)
    private let frameCount = Atomic<Int>(0)

    /// Frames lost so far (an estimate: see `ALSACaptureSource.overruns`); the number the
    /// summary reports as the gap, like `DroppedFrameCount.value`.
    public var value: Int { frameCount.load(ordering: .relaxed) }

    /// Overruns so far.
    public var events: Int { eventCount.load(ordering: .relaxed) }

    init() {}

    func add(event lostFrames: Int) {
        eventCount.add(1, ordering: .relaxed)
        frameCount.add(Swift.max(0, lostFrames), ordering: .relaxed)
    }
}
