import Hummingbird
import SondeAccounts

/// Register (`/register`): Email, Password, Register; on success the new user is signed in
/// on Main. A known address is told so (docs/accounts.md says why the web cannot answer
/// alike for known and new addresses when a new one is signed in at once).
struct RegisterScreen: Sendable {
    let environment: AppEnvironment

    /// Registrations tried per client: 20 in 15 minutes, so one address cannot create
    /// accounts (each a 128 MiB hash and a row) without end.
    private let perClient = RequestRateLimit(limit: 20, window: 900)

    func add(to screens: Screens) {
        screens.get(.register) { _, context in
            if context.session != nil { return .navigate(.main) }
            return .page(RegisterView(state: .idle, email: "", csrf: context.csrfToken).html)
        }
        let perClient = perClient
        screens.post(.register) { _, context in
            let email = context.form["email"]
            let password = context.form["password"]
            func refused(_ message: String, _ status: HTTPResponse.Status, retryAfter: Int? = nil) -> ScreenOutcome {
                let alert = Alert.error(message)
                let view = RegisterView(state: .error(alert), email: email, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: status, retryAfter: retryAfter)
            }
            if let wait = perClient.retryAfter(context.client) {
                return refused(
                    "Too many registrations from this address; try again in \(DisplayFormat.wait(wait))",
                    .tooManyRequests, retryAfter: wait)
            }
            do {
                let session = try await environment.accounts.register(
                    email: email, password: password, client: context.client)
                return .signIn(session, to: .main)
            } catch let error as AccountError {
                switch error.code {
                case .emailTaken:
                    return refused("An account already exists for this email; log in instead", .conflict)
                case .busy:
                    return refused(error.message, .serviceUnavailable, retryAfter: error.retryAfter)
                default: return refused(error.message, .unprocessableContent)
                }
            }
        }
    }
}
