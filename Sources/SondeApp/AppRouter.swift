import Hummingbird
import SondeAccounts

/// The app's one router: middleware (security headers, session, CSRF), the static assets,
/// and each screen's routes; it turns every `ScreenOutcome` into a response, so where the
/// user goes next is decided here and nowhere else.
struct AppRouter: Sendable {
    let environment: AppEnvironment

    func make() -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        let sessions = SessionMiddleware(
            accounts: environment.accounts, secureCookies: environment.configuration.secureCookies)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ErrorPageMiddleware())
        router.add(middleware: ClientAddressMiddleware(trustedProxies: Set(environment.configuration.trustedProxies)))
        router.add(middleware: sessions)
        router.add(middleware: CSRFMiddleware(publicURL: environment.configuration.publicURL))
        router.get(RouterPath(AppRoute.stylesheet.pattern.text)) { _, _ in
            Self.asset(StaticAssets.stylesheet, type: "text/css; charset=utf-8")
        }
        router.get(RouterPath(AppRoute.script.pattern.text)) { _, _ in
            Self.asset(StaticAssets.script, type: "text/javascript; charset=utf-8")
        }
        router.get(RouterPath(AppRoute.icon.pattern.text)) { _, _ in
            Self.asset(StaticAssets.icon, type: "image/svg+xml")
        }
        let screens = Screens(router: router, respond: respond(sessions: sessions))
        LoginScreen(environment: environment).add(to: screens)
        RegisterScreen(environment: environment).add(to: screens)
        ForgotPasswordScreen(environment: environment).add(to: screens)
        ResetPasswordScreen(environment: environment).add(to: screens)
        MainScreen(environment: environment).add(to: screens)
        NewMeasurementScreen(environment: environment).add(to: screens)
        DraftScreen(environment: environment).add(to: screens)
        MeasurementScreen(environment: environment).add(to: screens)
        return router
    }

    private static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The response for an outcome; a request from the page's script (`Accept:
    /// application/json`) gets JSON it acts on instead of a page or a redirect.
    private func respond(sessions: SessionMiddleware) -> @Sendable (ScreenOutcome, Request) -> Response {
        { outcome, request in
            let wantsJSON = request.headers[.accept]?.contains("application/json") == true
            switch outcome {
            case .page(let html, let status):
                return Self.html(html, status: status)
            case .navigate(let route, let notice):
                return Self.navigate(to: route, notice: notice, json: wantsJSON)
            case .alert(let alert, let page, let status, let retryAfter):
                // The page's script gets 200 and the alert: a refusal it shows is not a failed
                // request (Chromium logs every 4xx fetch as a console error).
                var response =
                    wantsJSON
                    ? Self.json(alert.json, status: .ok) : Self.html(page, status: status)
                if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
                return response
            case .signIn(let session, let route):
                var response = Self.navigate(to: route, notice: nil, json: wantsJSON)
                response.setCookie(
                    sessions.cookie(
                        SessionMiddleware.sessionCookie, session.token,
                        maxAge: Int(AccountPolicy().sessionLifetime)))
                return response
            case .signOut(let route, let notice):
                var response = Self.navigate(to: route, notice: notice, json: wantsJSON)
                response.setCookie(sessions.cookie(SessionMiddleware.sessionCookie, "", maxAge: 0))
                return response
            case .download(let body, let fileName, let contentType):
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: contentType, .contentDisposition: "attachment; filename=\"\(fileName)\"",
                        .cacheControl: "no-store",
                    ],
                    body: body)
            case .json(let text, let status):
                return Self.json(text, status: status)
            case .stream(let body, let contentType):
                return Response(
                    status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"], body: body)
            case .document(let text, let policy):
                var response = Self.html(HTML(trusted: text), status: .ok)
                response.headers[.contentSecurityPolicy] = policy
                return response
            }
        }
    }

    static func html(_ html: HTML, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html.text)))
    }

    static func json(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func navigate(to route: AppRoute, notice: Notice?, json: Bool) -> Response {
        var location = route.path
        if let notice { location += (location.contains("?") ? "&" : "?") + "notice=" + notice.rawValue }
        if json { return Self.json("{\"navigate\":\(Alert.jsonString(location))}", status: .ok) }
        return Response(status: .seeOther, headers: [.location: location])
    }
}

/// How a screen adds its routes: each handler returns a `ScreenOutcome`; `signedIn`
/// routes send a visitor without a session to Login (a script gets 401 and where to go).
struct Screens {
    let router: Router<AppRequestContext>
    let respond: @Sendable (ScreenOutcome, Request) -> Response

    typealias Handler = @Sendable (Request, AppRequestContext) async throws -> ScreenOutcome
    typealias SignedInHandler = @Sendable (Request, AppRequestContext, WebSession) async throws -> ScreenOutcome

    func get(_ pattern: AppRoute.Pattern, _ handler: @escaping Handler) {
        let respond = respond
        router.get(RouterPath(pattern.text)) { request, context in
            respond(try await handler(request, context), request)
        }
    }

    func post(_ pattern: AppRoute.Pattern, _ handler: @escaping Handler) {
        let respond = respond
        router.post(RouterPath(pattern.text)) { request, context in
            respond(try await handler(request, context), request)
        }
    }

    func get(signedIn pattern: AppRoute.Pattern, _ handler: @escaping SignedInHandler) {
        let respond = respond
        router.get(RouterPath(pattern.text)) { request, context in
            try await Self.signedIn(request, context, handler, respond)
        }
    }

    func post(signedIn pattern: AppRoute.Pattern, _ handler: @escaping SignedInHandler) {
        let respond = respond
        router.post(RouterPath(pattern.text)) { request, context in
            try await Self.signedIn(request, context, handler, respond)
        }
    }

    private static func signedIn(
        _ request: Request, _ context: AppRequestContext, _ handler: SignedInHandler,
        _ respond: @Sendable (ScreenOutcome, Request) -> Response
    ) async throws -> Response {
        guard let session = context.session else {
            if request.headers[.accept]?.contains("application/json") == true {
                return AppRouter.json(
                    "{\"navigate\":\(Alert.jsonString(AppRoute.login.path))}", status: .unauthorized)
            }
            return Response(status: .seeOther, headers: [.location: AppRoute.login.path])
        }
        return respond(try await handler(request, context, session), request)
    }
}
