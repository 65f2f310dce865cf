import SondeCore

/// Password-reset "email" as text files in a local outbox (`$SONDE_HOME/outbox/`), one per
/// message, mode 0600 (they hold a secret), named `reset-<UTC time>-<random>.txt` so they
/// sort by time. A real mail transport would implement `PasswordResetMailer` instead.
public struct OutboxMailer: PasswordResetMailer {
    public let directory: String
    private let resetPage: @Sendable () -> String?
    private let now: @Sendable () -> Double

    /// - Parameter resetPage: the app's Reset password address (`https://host/reset-password`)
    ///   when `sonde serve` runs, for a link with the token; nil (the commands) names only
    ///   `sonde reset-password`. Configured, never taken from a request's `Host` header,
    ///   which an attacker chooses (OWASP's password-reset poisoning).
    public init(
        directory: String, resetPage: @escaping @Sendable () -> String? = { nil },
        now: @escaping @Sendable () -> Double = WallClock.now
    ) {
        self.directory = directory
        self.resetPage = resetPage
        self.now = now
    }

    public func sendPasswordReset(to email: String, token: String, expiresAt: Double) async throws {
        try PrivateFiles.makeDirectory(directory)
        let stamp = UTCTimestamp.rfc3339(epochSeconds: now()).filter { $0.isNumber }
        let name = "reset-\(stamp)-\(SecretToken.random().text.prefix(8)).txt"
        let message = Self.message(to: email, token: token, expiresAt: expiresAt, resetPage: resetPage())
        try PrivateFiles.write(message, to: directory + "/" + name)
    }

    /// The message's text: headers, then how to use the token (the page's link first, when
    /// there is a page).
    static func message(to email: String, token: String, expiresAt: Double, resetPage: String? = nil) -> String {
        let deadline = UTCTimestamp.rfc3339(epochSeconds: expiresAt)
        // The token is hex (`SecretToken`): it goes into the link as it is.
        let how =
            resetPage.map {
                "Choose a new password before \(deadline) on this page:\n\n    \($0)?token=\(token)\n\nor with:"
            }
            ?? "Choose a new password before \(deadline) with:"
        return """
            To: \(email)
            Subject: Reset your sonde password
            Token: \(token)
            Expires: \(deadline)

            Someone (hopefully you) asked to reset the password of the sonde account \(email).
            \(how)

                sonde reset-password --token \(token)

            The token works once. If you did not ask for this, ignore this message: your
            password stays as it is.

            """
    }
}
