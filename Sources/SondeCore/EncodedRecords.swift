/// Records already encoded by the workers, in output order (frame by frame, the channels in
/// order within a frame): their bytes, and where each record ends. The writing thread only
/// copies them out (issue 30: it interleaved the channels' records, a tenth of a two-channel
/// run's serial share).
public struct EncodedRecords: Sendable {
    public var bytes: [UInt8]
    /// Record `r` ends at `ends[r]`; record `frame * channels + channel` is that channel's
    /// record of that frame.
    public var ends: [Int]

    public init(bytes: [UInt8], ends: [Int]) {
        self.bytes = bytes
        self.ends = ends
    }

    /// The bytes of record `index`, in output order.
    public func record(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }
}
