/// The Register screen's view model.
struct RegisterView: Sendable {
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
            title: "Register",
            content: """
                <div class="card narrow">
                <h1>Register</h1>
                \(alert)
                <form method="post" action="\(AppRoute.register.path)" data-async novalidate>
                \(PageLayout.csrfField(csrf))
                <label for="email">Email</label>
                <input id="email" name="email" type="email" autocomplete="email" value="\(email)" data-required>
                <label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="new-password" data-required
                  aria-describedby="password-rule">
                <p id="password-rule" class="empty">At least 8 characters.</p>
                <div class="actions">
                <button type="submit">Register</button>
                \(PageLayout.spinner)
                <a class="button secondary" href="\(AppRoute.login.path)">Log in</a>
                </div>
                </form>
                </div>
                """)
    }
}
