import Hummingbird
import SondeAccounts

/// Login (`/login`): Email, Password, Log in; links to Register and Forgot password?.
struct LoginScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        screens.get(AppRoute.login.path) { request, context in
            if context.session != nil { return .navigate(.main) }
            let notice = request.uri.queryParameters.get("notice").flatMap(Notice.init(rawValue:))
            return .page(LoginView(state: .idle, email: "", notice: notice, csrf: context.csrfToken).html)
        }
        screens.post(AppRoute.login.path) { _, context in
            let email = context.form["email"]
            let password = context.form["password"]
            func refused(_ alert: Alert, _ status: HTTPResponse.Status, retryAfter: Int? = nil) -> ScreenOutcome {
                let view = LoginView(state: .error(alert), email: email, notice: nil, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: status, retryAfter: retryAfter)
            }
            do {
                let session = try await environment.accounts.login(
                    email: email, password: password, client: context.client)
                return .signIn(session, to: .main)
            } catch let error as AccountError {
                switch error.code {
                case .missingFields: return refused(.error("Please fill all fields"), .unprocessableContent)
                case .locked:
                    return refused(.error(error.message), .tooManyRequests, retryAfter: error.retryAfter)
                case .busy:
                    return refused(.error(error.message), .serviceUnavailable, retryAfter: error.retryAfter)
                default: return refused(.error(AccountError.invalidCredentials.message), .unauthorized)
                }
            }
        }
    }
}
