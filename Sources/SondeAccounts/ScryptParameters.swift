import SondeCore

/// scrypt's cost: N = 2^logN iterations over 128·r·N bytes, p independent lanes.
///
/// Stored with every hash (`$scrypt$ln=17,r=8,p=1$...`): hashes made before Argon2id
/// (`PasswordCost`) verify with their own parameters and are re-hashed at the next login.
public struct ScryptParameters: Sendable, Equatable, CustomStringConvertible {
    /// log2 of N, the CPU/memory cost; 1...24.
    public var logN: Int
    /// r, the block size (8 everywhere scrypt is deployed).
    public var blockSize: Int
    /// p, the parallelism.
    public var parallelism: Int

    public init(logN: Int, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    static let validLogN = 1...24

    /// Bytes scrypt allocates: 128·r·(N + p + 1).
    public var memoryBytes: Int { 128 * blockSize * ((1 << logN) + parallelism + 1) }

    /// Whether hashes made with `self` are at least as costly as with `other` in every parameter.
    func isAtLeast(_ other: ScryptParameters) -> Bool {
        logN >= other.logN && blockSize >= other.blockSize && parallelism >= other.parallelism
    }

    public var description: String { "ln=\(logN),r=\(blockSize),p=\(parallelism)" }
}
