public import SondeCore

/// A whole input as one array per channel, for analyses that need every sample at once
/// (the kurtogram's filter bank). Bounded: past `limit` samples per channel it refuses,
/// naming the size, rather than grow without end.
public enum ChannelSamples {
    /// 2^26 samples per channel (512 MiB a channel as doubles): 23 minutes at 48 kHz.
    public static let defaultLimit = 1 << 26

    /// Reads `source` to its end.
    /// - Throws: the source's errors; `SondeError(.unsupported)` past `limit`.
    public static func read(_ source: any SampleSource, name: String, limit: Int = defaultLimit) throws -> [[Double]] {
        let channels = source.format.channelCount
        var result = Array(repeating: [Double](), count: channels)
        let frames = 65_536
        var buffer = [Double](repeating: 0, count: frames * channels)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
            if count == 0 { break }
            guard result[0].count + count <= limit else {
                throw SondeError(
                    .unsupported,
                    "\(name): longer than \(limit) samples per channel, which this analysis holds in memory at once; cut it first"
                )
            }
            // `append`'s geometric growth: reserving exactly the next chunk copied every
            // channel whole at every chunk (a tenth of `diagnose`'s CPU for a minute at 48 kHz).
            buffer.withUnsafeBufferPointer { values in
                for channel in 0..<channels {
                    for frame in 0..<count { result[channel].append(values[frame * channels + channel]) }
                }
            }
        }
        return result
    }
}
