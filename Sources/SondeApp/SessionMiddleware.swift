import Hummingbird

/// Reads the session cookie into the request context (an expired or revoked session reads
/// as none), and gives a browser without a session its pre-session CSRF cookie, so the
/// Login and Register forms are protected too.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let sessionCookie = "sonde_session"
    static let csrfCookie = "sonde_csrf"

    let accounts: WebAccounts
    let secureCookies: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        if let token = request.cookies[Self.sessionCookie]?.value, Self.isToken(token),
            let account = try await accounts.account(token: token)
        {
            context.session = WebSession(token: token, account: account)
        }
        var newCSRF: String?
        if let session = context.session {
            context.csrfToken = session.csrfToken
        } else if let existing = request.cookies[Self.csrfCookie]?.value, Self.isToken(existing) {
            context.csrfToken = existing
        } else {
            let fresh = RandomToken.make()
            context.csrfToken = fresh
            newCSRF = fresh
        }
        var response = try await next(request, context)
        if let newCSRF {
            response.setCookie(cookie(Self.csrfCookie, newCSRF, maxAge: nil))
        }
        return response
    }

    /// `HttpOnly` (no script reads it), `SameSite=Lax` (not sent with another site's POST),
    /// `Secure` behind TLS, the whole site.
    func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: "/", secure: secureCookies, httpOnly: true,
            sameSite: .lax)
    }

    /// 64 hex digits (or the 43-character base64url of a derived token): anything else in a
    /// cookie is not ours.
    static func isToken(_ text: String) -> Bool {
        (16...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}

/// 32 random bytes from the system's secure generator, as 64 hex digits.
enum RandomToken {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        var text = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return text
    }
}
