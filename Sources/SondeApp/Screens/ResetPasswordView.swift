/// The Reset password screen's view model: idle, or an alert about the form.
struct ResetPasswordView: Sendable {
    enum State: Sendable, Equatable {
        case idle
        case error(Alert)
    }

    var state: State
    /// From the link; a field to paste it into when the link did not carry one.
    var token: String
    var csrf: String

    var html: HTML {
        let alert: HTML? = if case .error(let alert) = state { alert.html } else { nil }
        let tokenField: HTML =
            token.isEmpty
            ? """
            <label for="token">Reset code</label>
            <input id="token" name="token" type="text" autocomplete="off" data-required>
            """
            : "<input type=\"hidden\" name=\"token\" value=\"\(token)\">"
        return PageLayout.page(
            title: "Reset password",
            content: """
                <div class="card narrow">
                <h1>Reset password</h1>
                \(alert)
                <form method="post" action="\(AppRoute.resetPassword(token: nil).path)" data-async novalidate>
                \(PageLayout.csrfField(csrf))
                \(tokenField)
                <label for="password">New password</label>
                <input id="password" name="password" type="password" autocomplete="new-password" data-required>
                <div class="actions">
                <button type="submit">Set new password</button>
                \(PageLayout.spinner)
                </div>
                </form>
                </div>
                """)
    }
}
