import Hummingbird
import NIOCore

/// Hummingbird's request context plus what the app's middleware learns about a request:
/// the signed-in session (if any), the CSRF token its forms carry, the parsed form of a
/// POST, and the client's address (the key of its failed-login locks).
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connecting address (a proxy's, behind one).
    let peer: String
    /// `web ADDRESS`: failed logins lock an email for this client only; the peer, or the
    /// address a trusted proxy forwarded for (`ClientAddressMiddleware`).
    var client: String
    /// Set by `SessionMiddleware` from the session cookie.
    var session: WebSession?
    /// The token every form of this response carries (`CSRFMiddleware` checks it on POST).
    var csrfToken = ""
    /// A POST's fields, read once by `CSRFMiddleware`.
    var form = FormFields()

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "unknown"
        client = "web " + peer
    }

    /// Forms are small: an email, a password, a comment.
    var maxUploadSize: Int { 64 * 1024 }
}
