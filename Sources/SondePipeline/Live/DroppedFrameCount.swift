import Synchronization

/// Frames a live source dropped, counted by its reading thread and read from any other.
public final class DroppedFrameCount: Sendable {
    private let count = Atomic<Int>(0)

    public var value: Int { count.load(ordering: .relaxed) }

    func add(_ frames: Int) {
        count.add(frames, ordering: .relaxed)
    }
}
