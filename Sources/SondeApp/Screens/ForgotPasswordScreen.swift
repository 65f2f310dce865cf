import Foundation
import Hummingbird
import SondeAccounts

/// Forgot password (`/forgot-password`): Email, Restore password; always back to Login with
/// a notice (whether the address has an account is not told); the reset message goes to
/// the outbox with its link to `/reset-password`.
struct ForgotPasswordScreen: Sendable {
    let environment: AppEnvironment

    /// Reset messages: 3 per address and 10 per client in 15 minutes (100 had been written
    /// to the outbox in 0.17 s).
    private let perAddress = RequestRateLimit(limit: 3, window: 900)
    private let perClient = RequestRateLimit(limit: 10, window: 900)

    func add(to screens: Screens) {
        screens.get(.forgotPassword) { _, context in
            .page(ForgotPasswordView(state: .idle, email: "", csrf: context.csrfToken).html)
        }
        let perAddress = perAddress, perClient = perClient
        screens.post(.forgotPassword) { _, context in
            let email = context.form["email"]
            let address = email.trimmingCharacters(in: .whitespaces).lowercased()
            if let wait = perClient.retryAfter(context.client) ?? perAddress.retryAfter(address) {
                let alert = Alert.error("Too many reset requests; try again in \(DisplayFormat.wait(wait))")
                let view = ForgotPasswordView(state: .error(alert), email: email, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: .tooManyRequests, retryAfter: wait)
            }
            do {
                try await environment.accounts.requestPasswordReset(email: email)
                return .navigate(.login, notice: .resetSent)
            } catch let error as AccountError {
                let alert = Alert.error(error.message)
                let view = ForgotPasswordView(state: .error(alert), email: email, csrf: context.csrfToken)
                return .alert(alert, page: view.html, status: .unprocessableContent)
            }
        }
    }
}
