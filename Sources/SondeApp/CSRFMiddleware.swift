import Hummingbird

/// Every POST carries this browser's CSRF token (the hidden `_csrf` field, or the
/// `X-CSRF-Token` header a script sends) or is refused with 403 before any handler runs.
/// The form is read here once and kept in the context for the handler.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        var context = context
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        context.form = FormFields(encoded: String(buffer: body))
        let sent = request.headers[.init("X-CSRF-Token")!] ?? context.form["_csrf"]
        let preSession = request.cookies[SessionMiddleware.csrfCookie]?.value ?? ""
        guard !sent.isEmpty,
            Self.constantTimeEquals(sent, context.csrfToken)
                || (!preSession.isEmpty && Self.constantTimeEquals(sent, preSession))
        else { throw WebError.forbidden }
        return try await next(request, context)
    }

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
