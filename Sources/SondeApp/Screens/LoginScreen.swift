import Hummingbird
import SondeAccounts

/// Login (`/login`): Email, Password, Log in; links to Register and Forgot password?.
struct LoginScreen: Sendable {
    let environment: AppEnvironment

    /// Failed logins per client across every email: password spraying (40 guesses over 10
    /// accounts from one address passed) stops at 20 in 15 minutes. The lock per email and
    /// client (LocalAuthenticationService) still guards each account on its own.
    private let failuresPerClient = RequestRateLimit(limit: 20, window: 900)

    func add(to screens: Screens) {
        screens.get(.login) { request, context in
            if context.session != nil { return .navigate(.main) }
            let notice = request.uri.queryParameters.get("notice").flatMap(Notice.init(rawValue:))
            return .page(LoginView(state: .idle, email: "", notice: notice, csrf: context.csrfToken).html)
        }
        let failuresPerClient = failuresPerClient
        screens.post(.login) { _, context in
            let email = context.form["email"]
            let password = context.form["password"]
            func refused(_ alert: Alert, _ status: HTTPResponse.Status, retryAfter: Int? = nil) -> ScreenOutcome {
                let view = LoginView(state: .error(alert), email: email, notice: nil, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: status, retryAfter: retryAfter)
            }
            if let wait = failuresPerClient.blocked(context.client) {
                let alert = Alert.error(
                    "Too many failed logins from this address; try again in \(DisplayFormat.wait(wait))")
                return refused(alert, .tooManyRequests, retryAfter: wait)
            }
            do {
                let session = try await environment.accounts.login(
                    email: email, password: password, client: context.client)
                return .signIn(session, to: .main)
            } catch let error as AccountError {
                switch error.code {
                case .missingFields: return refused(.error("Please fill all fields"), .unprocessableContent)
                case .locked:
                    failuresPerClient.record(context.client)
                    return refused(.error(error.message), .tooManyRequests, retryAfter: error.retryAfter)
                case .busy:
                    return refused(.error(error.message), .serviceUnavailable, retryAfter: error.retryAfter)
                default:
                    failuresPerClient.record(context.client)
                    return refused(.error(AccountError.invalidCredentials.message), .unauthorized)
                }
            }
        }
    }
}
