import Hummingbird
import SondeAccounts

/// Reset password (`/reset-password?token=...`, the outbox message's link): a new password,
/// then Login (or Main, for a browser already signed in, whose session is kept).
struct ResetPasswordScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        screens.get(.resetPassword) { request, context in
            let token = request.uri.queryParameters.get("token") ?? ""
            return .page(ResetPasswordView(state: .idle, token: token, csrf: context.csrfToken).html)
        }
        screens.post(.resetPassword) { _, context in
            let token = context.form["token"]
            do {
                _ = try await environment.accounts.resetPassword(
                    token: token, newPassword: context.form["password"], keepingSession: context.session?.token)
                return context.session == nil ? .navigate(.login, notice: .passwordChanged) : .navigate(.main)
            } catch let error as AccountError {
                let message =
                    error.code == .invalidResetToken
                    ? "This reset link is invalid or has expired; ask for a new one" : error.message
                let alert = Alert.error(message)
                let view = ResetPasswordView(state: .error(alert), token: token, csrf: context.csrfToken)
                let busy = error.code == .busy
                return .alert(
                    alert, page: view.html, status: busy ? .serviceUnavailable : .unprocessableContent,
                    retryAfter: busy ? error.retryAfter : nil)
            }
        }
    }
}
