import Hummingbird
import SondeAccounts

/// Forgot password (`/forgot-password`): Email, Restore password; always back to Login with
/// a notice (whether the address has an account is not told); the reset message goes to
/// the outbox with its link to `/reset-password`.
struct ForgotPasswordScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        screens.get(AppRoute.forgotPassword.path) { _, context in
            .page(ForgotPasswordView(alert: nil, email: "", csrf: context.csrfToken).html)
        }
        screens.post(AppRoute.forgotPassword.path) { _, context in
            let email = context.form["email"]
            do {
                try await environment.accounts.requestPasswordReset(email: email)
                return .navigate(.login, notice: .resetSent)
            } catch let error as AccountError {
                let alert = Alert.error(error.message)
                let view = ForgotPasswordView(alert: alert, email: email, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: .unprocessableContent)
            }
        }
    }
}
