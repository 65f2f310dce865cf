/// The Forgot password screen's view model: idle, or an alert about the form.
struct ForgotPasswordView: Sendable {
    enum State: Sendable, Equatable {
        case idle
        case error(Alert)
    }

    var state: State
    var email: String
    var csrf: String

    var html: HTML {
        let alert: HTML? = if case .error(let alert) = state { alert.html } else { nil }
        return PageLayout.page(
            title: "Forgot password",
            content: """
                <div class="card narrow">
                <h1>Forgot password</h1>
                \(alert)
                <p>Enter your account's email: we send it a link to set a new password.</p>
                <form method="post" action="\(AppRoute.forgotPassword.path)" data-async novalidate>
                \(PageLayout.csrfField(csrf))
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="email" value="\(email)" data-required>
                <div class="actions">
                <button type="submit">Restore password</button>
                \(PageLayout.spinner)
                <a class="button secondary" href="\(AppRoute.login.path)">Log in</a>
                </div>
                </form>
                </div>
                """)
    }
}
