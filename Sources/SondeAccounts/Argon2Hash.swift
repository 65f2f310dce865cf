import CArgon2
import SondeCore

/// Argon2id hashes through libargon2, the reference implementation: it writes the PHC
/// string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>`) and compares keys in constant
/// time. sonde reads the string's cost itself, to re-hash weaker ones and to refuse a
/// stored cost that would take gigabytes before libargon2 allocates it.
enum Argon2Hash {
    static let prefix = "$argon2id$"
    /// Argon2 version 1.3 (0x13), the one libargon2 writes.
    static let version = "v=19"

    /// The PHC string of a key made elsewhere: `PasswordHasher.unmatchableHash`'s all-zero key.
    static func text(cost: Argon2Parameters, salt: [UInt8], key: [UInt8]) -> String {
        "\(prefix)\(version)$\(cost)$\(EncodedHash.encode(salt))$\(EncodedHash.encode(key))"
    }

    static func holds(_ encoded: String) -> Bool { encoded.hasPrefix(prefix) }

    /// The cost a stored hash names.
    /// - Throws: `SondeError(.invalidInput)` when it is not an Argon2id string of version 19
    ///   with a cost inside `Argon2Parameters`' ranges.
    static func parameters(of encoded: String) throws -> Argon2Parameters {
        func invalid(_ what: String) -> SondeError {
            SondeError(.invalidInput, "stored password hash: \(what); expected $argon2id$v=19$m=M,t=T,p=P$salt$key")
        }
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == version else {
            throw invalid("unknown format")
        }
        var values: [Substring: Int] = [:]
        for pair in fields[3].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { throw invalid("bad parameter '\(pair)'") }
            values[parts[0]] = value
        }
        guard let memory = values["m"], let iterations = values["t"], let parallelism = values["p"] else {
            throw invalid("missing parameters")
        }
        let parameters = Argon2Parameters(memoryKiB: memory, iterations: iterations, parallelism: parallelism)
        guard parameters.isValid else { throw invalid("parameters out of range") }
        return parameters
    }

    /// A new hash's PHC string.
    static func encode(_ password: String, salt: [UInt8], cost: Argon2Parameters) throws -> String {
        let (t, m, p) = (UInt32(cost.iterations), UInt32(cost.memoryKiB), UInt32(cost.parallelism))
        let keyLength = PasswordHasher.keyByteCount
        let length = argon2_encodedlen(t, m, p, UInt32(salt.count), UInt32(keyLength), Argon2_id)
        var text = [CChar](repeating: 0, count: length + 1)
        let bytes = Array(password.utf8)
        let code = argon2id_hash_encoded(t, m, p, bytes, bytes.count, salt, salt.count, keyLength, &text, text.count)
        guard code == ARGON2_OK.rawValue else { throw failure(code, "hash a password with Argon2id \(cost)") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` gives `encoded` (whose cost `parameters(of:)` has checked).
    static func verify(_ password: String, against encoded: String) throws -> Bool {
        let bytes = Array(password.utf8)
        let code = argon2id_verify(encoded, bytes, bytes.count)
        if code == ARGON2_OK.rawValue { return true }
        if code == ARGON2_VERIFY_MISMATCH.rawValue { return false }
        throw failure(code, "check a password against its Argon2id hash")
    }

    private static func failure(_ code: Int32, _ what: String) -> SondeError {
        let reason = argon2_error_message(code).map { String(cString: $0) } ?? "error \(code)"
        return SondeError(.io, "cannot \(what): \(reason)")
    }
}
