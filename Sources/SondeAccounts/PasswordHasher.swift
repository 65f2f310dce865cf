import Crypto
import CryptoExtras
import Dispatch
import Foundation
import SondeCore

/// Password hashes in the PHC string format: Argon2id for new ones
/// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>`, made and checked by libargon2), scrypt
/// for those made before (`$scrypt$ln=17,r=8,p=1$<salt>$<key>`), which still verify and
/// are re-hashed at the next login (`needsRehash`). Unpadded standard base64, 16-byte
/// salt, 32-byte key.
///
/// Hashing takes tens of milliseconds (scrypt's, hundreds) and megabytes by design, so it
/// runs on blocking threads, never on Swift's cooperative pool (where it would stall every
/// other task, the web's pages included), and at most `maxConcurrentHashes` at a time (so
/// a burst of logins cannot take gigabytes). Copies of a hasher share its limit.
public struct PasswordHasher: Sendable {
    /// The cost of new hashes; existing hashes verify with their own.
    public var parameters: PasswordCost
    static let saltByteCount = 16
    static let keyByteCount = 32
    private let slots: HashingSlots
    /// For tests: called on the hashing thread as each hash starts (true) and ends (false).
    package var hashingProbe: (@Sendable (_ started: Bool) -> Void)?

    /// - Parameters:
    ///   - maxConcurrentHashes: hashes running at once, at least 1; the cores, by default
    ///     (more only share them).
    ///   - waitLimit: how long a caller waits for a slot before `AccountError.busy`; nil
    ///     waits as long as it takes (the CLI, with one login at a time).
    ///   - queueLimit: callers that may wait at once; the next is refused with
    ///     `AccountError.busy` at once (a waiter costs no memory, but a flood must end).
    public init(
        parameters: PasswordCost = .production,
        maxConcurrentHashes: Int = PasswordHasher.coreCount, waitLimit: Duration? = nil, queueLimit: Int = .max
    ) {
        self.parameters = parameters
        self.slots = HashingSlots(limit: maxConcurrentHashes, waitLimit: waitLimit, queueLimit: queueLimit)
    }

    /// The default limit: the cores this process may use.
    public static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// The most hashes that run at once.
    public var maxConcurrentHashes: Int { slots.limit }

    /// Callers waiting for a slot now (the queue that `queueLimit` bounds).
    package var waitingCallers: Int { slots.waiting }

    /// Concurrent (the slots bound how many at once): each run blocks its thread for the
    /// whole hash, which is what Dispatch's threads, not the cooperative pool's, are for.
    private static let queue = DispatchQueue(
        label: "sonde.password-hashing", qos: .userInitiated, attributes: .concurrent)

    /// A new hash of `password` with a fresh random salt.
    /// - Throws: `AccountError.busy` when no slot frees within the wait limit.
    public func hash(_ password: String) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        switch parameters {
        case .argon2id(let cost):
            return try await run { try Argon2Hash.encode(password, salt: salt, cost: cost) }
        case .scrypt(let cost):
            let key = try await run { try Self.scrypt(password, salt: salt, cost: cost) }
            return EncodedHash(parameters: cost, salt: salt, key: key).text
        }
    }

    /// Whether `password` gives `encoded`, compared in constant time.
    /// - Throws: `SondeError(.invalidInput)` when `encoded` is not a hash this type wrote;
    ///   `AccountError.busy` when no slot frees within the wait limit.
    public func verify(_ password: String, against encoded: String) async throws -> Bool {
        if Argon2Hash.holds(encoded) {
            _ = try Argon2Hash.parameters(of: encoded)
            return try await run { try Argon2Hash.verify(password, against: encoded) }
        }
        let stored = try EncodedHash(parsing: encoded)
        let key = try await run { try Self.scrypt(password, salt: stored.salt, cost: stored.parameters) }
        return constantTimeEquals(key, stored.key)
    }

    /// Whether `encoded` was made otherwise or with a lower cost than `parameters` (re-hash
    /// it at the next login, while the password is at hand).
    public func needsRehash(_ encoded: String) -> Bool {
        switch parameters {
        case .argon2id(let cost):
            guard let stored = try? Argon2Hash.parameters(of: encoded) else { return true }
            return !stored.isAtLeast(cost)
        case .scrypt(let cost):
            guard let stored = try? EncodedHash(parsing: encoded) else { return true }
            return !stored.parameters.isAtLeast(cost)
        }
    }

    /// A well-formed hash at `parameters` whose key is all zeros, which neither KDF
    /// outputs in practice: what a login for an unknown address is checked against.
    func unmatchableHash() -> String {
        let salt = [UInt8](repeating: 0, count: Self.saltByteCount)
        let key = [UInt8](repeating: 0, count: Self.keyByteCount)
        switch parameters {
        case .argon2id(let cost):
            return Argon2Hash.text(cost: cost, salt: salt, key: key)
        case .scrypt(let cost):
            return EncodedHash(parameters: cost, salt: salt, key: key).text
        }
    }

    private static func scrypt(_ password: String, salt: [UInt8], cost: ScryptParameters) throws -> [UInt8] {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(password.utf8), salt: salt, outputByteCount: keyByteCount, rounds: 1 << cost.logN,
                blockSize: cost.blockSize, parallelism: cost.parallelism)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw SondeError(.io, "cannot hash a password with scrypt \(cost)", underlying: error)
        }
    }

    /// Runs `work` on a hashing thread once a slot is free.
    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await slots.acquire()
        let probe = hashingProbe
        let started = ContinuousClock.now
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<T, any Error>, Never>) in
            Self.queue.async {
                probe?(true)
                let result = Result { try work() }
                probe?(false)
                continuation.resume(returning: result)
            }
        }
        let elapsed = ContinuousClock.now - started
        slots.release(after: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        return try result.get()
    }
}

/// One `$scrypt$...` string taken apart.
struct EncodedHash: Equatable {
    var parameters: ScryptParameters
    var salt: [UInt8]
    var key: [UInt8]

    init(parameters: ScryptParameters, salt: [UInt8], key: [UInt8]) {
        self.parameters = parameters
        self.salt = salt
        self.key = key
    }

    init(parsing text: String) throws {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        func invalid(_ what: String) -> SondeError {
            SondeError(.invalidInput, "stored password hash: \(what); expected $scrypt$ln=N,r=R,p=P$salt$key")
        }
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { throw invalid("unknown format") }
        var values: [Substring: Int] = [:]
        for pair in fields[2].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { throw invalid("bad parameter '\(pair)'") }
            values[parts[0]] = value
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"],
            ScryptParameters.validLogN.contains(logN), (1...64).contains(r), (1...16).contains(p)
        else { throw invalid("parameters out of range") }
        guard let salt = Self.decode(fields[3]), let key = Self.decode(fields[4]), !salt.isEmpty, !key.isEmpty else {
            throw invalid("bad base64")
        }
        self.init(parameters: ScryptParameters(logN: logN, blockSize: r, parallelism: p), salt: salt, key: key)
    }

    var text: String { "$scrypt$\(parameters)$\(Self.encode(salt))$\(Self.encode(key))" }

    static func encode(_ bytes: [UInt8]) -> String {
        String(Data(bytes).base64EncodedString().prefix { $0 != "=" })
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        let padding = String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: String(text) + padding).map { Array($0) }
    }
}
