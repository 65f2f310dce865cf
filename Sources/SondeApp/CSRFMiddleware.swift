import Hummingbird

/// Every POST carries this browser's CSRF token (the hidden `_csrf` field, or the
/// `X-CSRF-Token` header a script sends) or is refused with 403 before any handler runs;
/// a POST whose `Origin` names another site is refused too (OWASP's defence in depth).
/// The form is read here once and kept in the context for the handler.
///
/// Signed in, the token is the one derived from the session, and only that one: the
/// pre-session cookie is no token any more, since whoever can set a cookie for the site (a
/// sibling subdomain, plain HTTP) could otherwise send `sonde_csrf=X` with `_csrf=X`.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    /// `--public-url`'s `HOST[:PORT]`, an origin a proxy's users see besides `Host`.
    let publicAuthority: String?

    init(publicURL: String?) {
        publicAuthority = publicURL.flatMap(Self.authority(ofOrigin:))
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        guard
            Self.sameOrigin(
                origin: request.headers[.origin], host: request.head.authority, publicAuthority: publicAuthority),
            Self.fromThisSite(fetchSite: Self.fetchSiteHeader.flatMap { request.headers[$0] })
        else { throw WebError.forbidden }
        var request = request
        var context = context
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        context.form = FormFields(encoded: String(buffer: body))
        let sent = Self.tokenHeader.flatMap { request.headers[$0] } ?? context.form["_csrf"]
        // Without a session `csrfToken` is the browser's pre-session cookie; with one, the
        // session's derived token (SessionMiddleware).
        guard !sent.isEmpty, !context.csrfToken.isEmpty, Self.constantTimeEquals(sent, context.csrfToken) else {
            throw WebError.forbidden
        }
        return try await next(request, context)
    }

    /// True when a request may come from this site: no `Origin` (a client that is not a
    /// browser, or one that sends none on same-origin forms), or one whose `HOST[:PORT]` is the
    /// request's `Host` or the public address. `Origin: null` (a sandboxed frame, a
    /// redirect from another site) is not this site.
    static func sameOrigin(origin: String?, host: String?, publicAuthority: String?) -> Bool {
        guard let origin else { return true }
        guard let authority = authority(ofOrigin: origin) else { return false }
        if let host, authority == host.lowercased() { return true }
        return authority == publicAuthority
    }

    /// `Sec-Fetch-Site`, which browsers send with every request: `cross-site` and
    /// `same-site` (a sibling subdomain) are another site; `same-origin` and `none` (typed
    /// or bookmarked) are this one; no header (not a browser) is left to the token.
    static func fromThisSite(fetchSite: String?) -> Bool {
        guard let fetchSite else { return true }
        return fetchSite != "cross-site" && fetchSite != "same-site"
    }

    static let fetchSiteHeader = HTTPFields.Element.Name("Sec-Fetch-Site")

    /// `example.org:8080` of `https://Example.org:8080` (lowercased); nil for `null` or
    /// anything that is not `scheme://authority`.
    static func authority(ofOrigin origin: String) -> String? {
        guard let separator = origin.range(of: "://") else { return nil }
        var rest = origin[separator.upperBound...]
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard !rest.isEmpty, !rest.contains("@") else { return nil }
        return rest.lowercased()
    }

    /// The header a script sends its token in.
    static let tokenHeader = HTTPFields.Element.Name("X-CSRF-Token")

    /// Time that depends on the lengths only.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
