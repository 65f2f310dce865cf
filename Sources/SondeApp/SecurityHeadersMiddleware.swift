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
        response.headers[.init("X-Frame-Options")!] = "DENY"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        response.headers[.init("Cross-Origin-Opener-Policy")!] = "same-origin"
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }
}
