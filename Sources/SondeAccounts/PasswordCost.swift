import SondeCore

/// How new password hashes are made: Argon2id at OWASP's setting in production; scrypt
/// stays for the hashes made before (they verify with their own cost and are re-hashed
/// with Argon2id at the next login) and, cheap, for tests.
public enum PasswordCost: Sendable, Equatable, CustomStringConvertible {
    case argon2id(Argon2Parameters)
    case scrypt(ScryptParameters)

    public static let production = PasswordCost.argon2id(.production)

    /// The variable that lowers the cost for tests only: `SONDE_SCRYPT_LOG_N=10` hashes
    /// with scrypt at N = 2^10 (1 MiB, about a millisecond). Never set it for real accounts.
    public static let environmentVariable = "SONDE_SCRYPT_LOG_N"

    /// `production`, or scrypt at the `SONDE_SCRYPT_LOG_N` a test sets.
    /// - Throws: `SondeError(.invalidArgument)` for a value that is not a whole number in 1...24.
    public static func fromEnvironment(_ environment: [String: String]) throws -> PasswordCost {
        guard let text = environment[environmentVariable], !text.isEmpty else { return .production }
        guard let logN = Int(text), ScryptParameters.validLogN.contains(logN) else {
            throw SondeError(.invalidArgument, "\(environmentVariable)=\(text): expected a whole number from 1 to 24")
        }
        return .scrypt(ScryptParameters(logN: logN))
    }

    /// Bytes one hash holds while it runs.
    public var memoryBytes: Int {
        switch self {
        case .argon2id(let parameters): parameters.memoryKiB * 1024
        case .scrypt(let parameters): parameters.memoryBytes
        }
    }

    public var description: String {
        switch self {
        case .argon2id(let parameters): "argon2id \(parameters)"
        case .scrypt(let parameters): "scrypt \(parameters)"
        }
    }
}
