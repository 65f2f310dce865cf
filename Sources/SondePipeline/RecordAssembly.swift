import Synchronization

/// Where the channels of one ticket leave their encoded records, so that the worker that
/// finishes last puts them in output order (frame by frame, channels in order) for the
/// writing thread, which then only copies one buffer (issue 30: interleaving there cost a
/// two-channel `--features rms` run half its serial share). One per ticket, pooled.
final class RecordAssembly: Sendable {
    let channelCount: Int
    private let remaining: Atomic<Int>
    private let parts: Mutex<[Part]>

    /// One channel's records: their bytes in frame order, and where each ends.
    struct Part: Sendable {
        var bytes: [UInt8] = []
        var ends: [Int] = []
    }

    init(channelCount: Int) {
        self.channelCount = channelCount
        remaining = Atomic(channelCount)
        parts = Mutex([Part](repeating: Part(), count: channelCount))
    }

    /// Readies the assembly for another ticket, once the exporter has read its results.
    func reset() {
        remaining.store(channelCount, ordering: .relaxed)
    }

    /// Leaves `part`, channel `channel`'s records of `frameCount` frames. The last channel
    /// to arrive gets every channel's records in output order (their buffers go back to
    /// `buffers`); nil to the others, and when a channel has no records (it failed).
    func deposit(_ part: consuming Part, channel: Int, frameCount: Int, buffers: JobBuffers) -> Part? {
        // Swapped in, not copied: the buffers' only reference is then the assembly's.
        var part = part
        parts.withLock { swap(&$0[channel], &part) }
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return nil }
        // Every channel has left its part: nobody else takes the lock until `reset()`.
        return parts.withLock { parts -> Part? in
            defer {
                for index in parts.indices {
                    // Moved out first, so the pool holds the only reference and keeps the capacity.
                    let bytes = parts[index].bytes
                    let ends = parts[index].ends
                    parts[index] = Part()
                    buffers.bytes.recycle(consume bytes)
                    buffers.ends.recycle(consume ends)
                }
            }
            guard parts.allSatisfy({ $0.ends.count == frameCount }) else { return nil }
            var records = Part(bytes: buffers.bytes.take(), ends: buffers.ends.take())
            records.bytes.reserveCapacity(parts.reduce(0) { $0 + ($1.ends.last ?? 0) })
            records.ends.reserveCapacity(frameCount * channelCount)
            parts.withUnsafeBufferPointer { parts in
                for frame in 0..<frameCount {
                    for channel in 0..<parts.count {
                        let ends = parts[channel].ends
                        let start = frame == 0 ? 0 : ends[frame - 1]
                        parts[channel].bytes.withUnsafeBufferPointer { bytes in
                            records.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<ends[frame]]))
                        }
                        records.ends.append(records.bytes.count)
                    }
                }
            }
            return records
        }
    }
}

extension Pool {
    static func recordAssemblies(channelCount: Int, limit: Int) -> Pool<RecordAssembly>
    where Item == RecordAssembly {
        Pool(limit: limit, make: { RecordAssembly(channelCount: channelCount) }, reset: { $0.reset() })
    }
}
