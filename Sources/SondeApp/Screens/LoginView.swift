/// The Login screen's view model: its state and what the form holds.
struct LoginView: Sendable {
    enum State: Sendable, Equatable {
        case idle
        /// The request runs: the buttons are disabled and the spinner turns (the page's
        /// script shows this state in place; the server renders it for no-script clients).
        case loading
        case error(Alert)
    }

    var state: State
    var email: String
    var notice: Notice?
    var csrf: String

    var html: HTML {
        let loading = state == .loading
        let alert: HTML? = if case .error(let alert) = state { alert.html } else { nil }
        let disabled: HTML = loading ? " disabled" : ""
        return PageLayout.page(
            title: "Log in",
            content: """
                <div class="card narrow">
                <h1>Log in</h1>
                \(PageLayout.notice(notice))\(alert)
                <form method="post" action="\(AppRoute.login.path)" data-async novalidate>
                \(PageLayout.csrfField(csrf))
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="email" value="\(email)" data-required>
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" data-required>
                <div class="actions">
                <button type="submit"\(disabled)>Log in</button>
                <span class="spinner" role="progressbar" aria-label="Loading"\(loading ? "" : " hidden")></span>
                </div>
                <div class="actions">
                <a class="button secondary" href="\(AppRoute.register.path)">Register</a>
                <a class="button secondary" href="\(AppRoute.forgotPassword.path)">Forgot password?</a>
                </div>
                </form>
                </div>
                """)
    }
}
