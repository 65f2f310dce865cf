import Synchronization

/// The newest samples of a live source, per channel, in a fixed ring: what a live screen
/// draws as a waveform. Bounded and lossy by design: an append overwrites the oldest
/// samples and never waits for a reader, so a screen that reads slowly (or never) costs
/// the capture one copy of each block and nothing more.
///
/// Both sides hold the lock only for a copy: the writer for its block (at most `capacity`
/// frames of it), a reader for the ring (`capacity * channels` values, 32 KiB for 2,048
/// frames of two channels, about 2 µs).
public final class RecentSamples: Sendable {
    /// Frames kept per channel (a power of two).
    public let capacity: Int
    public let channelCount: Int
    private let state: Mutex<State>

    private struct State {
        /// Interleaved frames; frame `f` at `(f & mask) * channelCount`.
        var ring: [Double]
        /// Frames appended since the start.
        var written = 0
    }

    /// What a reader gets: per channel the newest `min(written, capacity)` samples, oldest first.
    public struct Snapshot: Sendable, Equatable {
        public var channels: [[Double]]
        /// Frames appended since the start: the newest sample is frame `written - 1`.
        public var written: Int

        public init(channels: [[Double]], written: Int) {
            self.channels = channels
            self.written = written
        }
    }

    /// - Parameters:
    ///   - channelCount: interleaved channels of every block, >= 1.
    ///   - capacity: frames kept per channel, rounded up to a power of two, >= 1.
    public init(channelCount: Int, capacity: Int) {
        self.channelCount = Swift.max(1, channelCount)
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        state = Mutex(State(ring: [Double](repeating: 0, count: size * Swift.max(1, channelCount))))
    }

    /// Adds `frames` interleaved frames from `samples` (at least `frames * channelCount`
    /// values), dropping the oldest beyond `capacity`.
    public func append(_ samples: UnsafeBufferPointer<Double>, frames: Int) {
        let channels = channelCount
        let frames = Swift.min(frames, samples.count / channels)
        guard frames > 0 else { return }
        // Only the newest `capacity` frames of a long block can stay.
        let skipped = Swift.max(0, frames - capacity)
        let mask = capacity - 1
        state.withLock { state in
            let start = state.written &+ skipped
            state.ring.withUnsafeMutableBufferPointer { ring in
                for frame in 0..<(frames - skipped) {
                    let to = ((start &+ frame) & mask) * channels
                    let from = (skipped + frame) * channels
                    for channel in 0..<channels { ring[to + channel] = samples[from + channel] }
                }
            }
            state.written &+= frames
        }
    }

    /// A copy of what the ring holds now.
    public func snapshot() -> Snapshot {
        let (ring, written) = state.withLock { ($0.ring, $0.written) }
        let count = Swift.min(written, capacity)
        let mask = capacity - 1
        let first = written - count
        let channels = (0..<channelCount).map { channel in
            (0..<count).map { offset in ring[((first + offset) & mask) * channelCount + channel] }
        }
        return Snapshot(channels: channels, written: written)
    }
}
