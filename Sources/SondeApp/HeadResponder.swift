import Hummingbird

/// `HEAD` answered as `GET` without its body (RFC 9110, "HEAD"): monitors and link
/// checkers ask `HEAD /`, which was 404. It wraps the whole router, since routes are found
/// by method before any router middleware runs.
struct HeadResponder<Base: HTTPResponder>: HTTPResponder where Base.Context == AppRequestContext {
    typealias Context = AppRequestContext
    let base: Base

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await base.respond(to: Request(head: head, body: request.body), context: context)
        response.body = ResponseBody()
        return response
    }
}
