import Hummingbird

/// Headers on every response: a Content-Security-Policy that allows only this server's
/// own scripts, styles and images (no inline script or style, no other host), no framing,
/// no referrer (a reset link's token stays out of other sites' logs), and `no-store`
/// unless a response says otherwise (pages with a user's data are never cached). A
/// response that sets its own policy (the report page) keeps it.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        for (name, value) in Self.fixedHeaders { response.headers[name] = value }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    /// `Referrer-Policy: same-origin`: a reset link's token never leaves in a `Referer` to
    /// another site, and a same-origin POST still carries its true `Origin` (under
    /// `no-referrer` browsers send `Origin: null`, which the CSRF check must refuse).
    private static let fixedHeaders: [(HTTPFields.Element.Name, String)] = [
        ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ].compactMap { name, value in HTTPFields.Element.Name(name).map { ($0, value) } }
}
