import Hummingbird
import NIOCore
import SondeCore

/// Refusals (`WebError`) and unexpected failures as a page with the status, or JSON for
/// the page's script; an unexpected error's details stay in the server's log, never on a page.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as WebError {
            return Self.response(Alert.error(error.message), status: error.status, request: request)
        } catch let error as SondeError where error.code == .notFound {
            return Self.response(Alert.error(WebError.notFound.message), status: .notFound, request: request)
        } catch let error as SondeError where error.code == .busy {
            return Self.response(Alert.error(error.message), status: .conflict, request: request)
        } catch is NIOTooManyBytesError {
            // A body over the context's limit (forms are small): 413, not a server failure.
            return Self.response(
                Alert.error("The request is larger than the server takes (64 KiB)"), status: .contentTooLarge,
                request: request)
        } catch let error as HTTPError {
            let status = error.status
            return Self.response(Alert.error(status.reasonPhrase), status: status, request: request)
        } catch {
            context.logger.error("request failed: \(error)")
            return Self.response(
                Alert.error("Something went wrong on the server"), status: .internalServerError, request: request)
        }
    }

    static func response(_ alert: Alert, status: HTTPResponse.Status, request: Request) -> Response {
        if request.headers[.accept]?.contains("application/json") == true {
            return AppRouter.json(alert.json, status: status)
        }
        let page = PageLayout.page(
            title: alert.message,
            content: """
                <h1>\(status.reasonPhrase)</h1>
                \(alert.html)
                <p><a href="\(AppRoute.main.path)">Back to the start</a></p>
                """)
        return AppRouter.html(page, status: status)
    }
}
