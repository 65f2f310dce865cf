import Hummingbird

/// What a screen's handler decides: show a page, go to another screen, refuse with an
/// alert, or hand over a file. `AppRouter` turns it into a response, so navigation is
/// decided in one place and the screens never write redirects or headers.
enum ScreenOutcome: Sendable {
    case page(HTML, status: HTTPResponse.Status = .ok)
    /// To another screen (303 See Other), with a notice it shows once.
    case navigate(AppRoute, notice: Notice? = nil)
    /// The same screen again with an alert; a script that sent the form shows the alert in
    /// place. `retryAfter` (seconds) for a lock or a full login queue.
    case alert(Alert, page: HTML, status: HTTPResponse.Status, retryAfter: Int? = nil)
    /// Signed in: the session cookie is set, then on to `route`.
    case signIn(WebSession, to: AppRoute)
    /// Signed out: the session cookie is cleared, then on to `route`.
    case signOut(to: AppRoute, notice: Notice?)
    /// A file to save, sent as it is read (`ExportDownload`).
    case download(ResponseBody, fileName: String, contentType: String)
    /// A whole document of its own (the report page) under its own Content-Security-Policy.
    case document(String, contentSecurityPolicy: String)
    /// JSON for the page's script (live values).
    case json(String, status: HTTPResponse.Status = .ok)
    /// A body written as it goes (Server-Sent Events).
    case stream(ResponseBody, contentType: String)
}

/// The one-line notices a screen shows after another screen's action; by name in the
/// address (`/login?notice=reset-sent`), so nobody can make a page say arbitrary words.
enum Notice: String, Sendable {
    case resetSent = "reset-sent"
    case passwordChanged = "password-changed"
    case loggedOut = "logged-out"
    case discarded = "discarded"
    case saved = "saved"
    case deleted = "deleted"

    var text: String {
        switch self {
        case .resetSent: "If an account exists for that address, a reset link is on its way."
        case .passwordChanged: "Your password has been changed."
        case .loggedOut: "You have been logged out."
        case .discarded: "The measurement was discarded."
        case .saved: "Measurement saved."
        case .deleted: "Measurement deleted."
        }
    }
}
