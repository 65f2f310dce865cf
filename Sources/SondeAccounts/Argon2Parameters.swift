/// Argon2id's cost: `memoryKiB` of memory passed over `iterations` times, in `parallelism`
/// lanes (RFC 9106). Stored with every hash (`$argon2id$v=19$m=19456,t=2,p=1$...`), so the
/// cost can be raised later and old hashes still verify with their own.
public struct Argon2Parameters: Sendable, Equatable, CustomStringConvertible {
    public var memoryKiB: Int
    public var iterations: Int
    public var parallelism: Int

    /// m = 19 MiB, t = 2, p = 1: OWASP's Password Storage Cheat Sheet's first
    /// recommendation. About 40 ms per hash on the development machine, so 20 logins at
    /// once pass within a second on 2 cores (issue 44), where scrypt at OWASP's minimum
    /// (N = 2^17) took 0.3 s each and 3 s for twenty.
    public static let production = Argon2Parameters(memoryKiB: 19456, iterations: 2, parallelism: 1)

    public init(memoryKiB: Int, iterations: Int, parallelism: Int) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// The ranges a stored hash may name: a damaged or hostile row must not ask for
    /// gigabytes or minutes.
    static let validMemoryKiB = 8...(1 << 20)
    static let validIterations = 1...16
    static let validParallelism = 1...16

    var isValid: Bool {
        Self.validIterations.contains(iterations) && Self.validParallelism.contains(parallelism)
            && Self.validMemoryKiB.contains(memoryKiB) && memoryKiB >= 8 * parallelism
    }

    /// Whether hashes made with `self` are at least as costly as with `other` in every parameter.
    func isAtLeast(_ other: Argon2Parameters) -> Bool {
        memoryKiB >= other.memoryKiB && iterations >= other.iterations && parallelism >= other.parallelism
    }

    public var description: String { "m=\(memoryKiB),t=\(iterations),p=\(parallelism)" }
}
