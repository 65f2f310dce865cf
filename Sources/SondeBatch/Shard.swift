import SondeCore

/// One of N deterministic parts of a dataset (`--shard K/N`), so N machines can share one
/// run: an input belongs to shard `hash(name) mod N`, where the name is its `file` column.
/// The split depends only on each input's own name, so adding files never moves old ones
/// to another shard, and every machine computes the same split.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// K, 0 <= K < N (Slurm: `--array=0-(N-1)`, `$SLURM_ARRAY_TASK_ID`; Kubernetes
    /// Indexed Jobs: `$JOB_COMPLETION_INDEX`).
    public var index: Int
    /// N >= 1.
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    /// - Throws: `SondeError(.invalidArgument)` naming `--shard` and the expected form.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, k >= 0, k < n
        else {
            throw SondeError(
                .invalidArgument,
                "--shard \(text): expected K/N with 0 <= K < N <= 1000000, e.g. 0/3 (shards count from 0)")
        }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    public func contains(_ name: String) -> Bool {
        Int(Self.hash(name) % UInt64(count)) == index
    }

    /// FNV-1a, 64 bits, of the name's UTF-8: stable across machines, runs and versions.
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
