import Crypto
import Foundation
import SondeAccounts

/// A browser's signed-in session: the secret its cookie holds and the account it is for.
struct WebSession: Sendable, Equatable {
    var token: String
    var account: Account

    init(token: String, account: Account) {
        self.token = token
        self.account = account
    }

    init(_ session: UserSession) {
        self.init(token: session.token, account: session.account)
    }

    /// The CSRF token of this session's forms: derived from the session secret (so it
    /// changes with each login) by a one-way hash (so a leaked form does not leak the session).
    var csrfToken: String { Self.derived("sonde-csrf:" + token) }

    static func derived(_ text: String) -> String {
        Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
