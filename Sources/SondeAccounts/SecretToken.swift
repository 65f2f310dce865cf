import Crypto

/// A 256-bit random secret (a session or reset token) as the client holds it: 64
/// lower-case hex digits. Stores only ever see `hash`.
struct SecretToken: Sendable {
    let text: String

    /// 32 bytes from the system's cryptographically secure generator (getrandom(2)).
    static func random() -> SecretToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SecretToken(text: Hex.encode(bytes))
    }

    init(text: String) {
        self.text = text
    }

    var hash: [UInt8] { Self.hash(text) }

    /// SHA-256 of the token's text: what a store keeps and looks tokens up by. A token is
    /// 256 random bits, so a fast hash is enough (nothing to brute-force, unlike passwords).
    static func hash(_ text: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(text.utf8)))
    }
}

enum Hex {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Compares in time that depends only on the lengths, never on where the bytes differ.
func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
}
