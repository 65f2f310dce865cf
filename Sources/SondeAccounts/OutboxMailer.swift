import SondeCore

/// Password-reset "email" as text files in a local outbox (`$SONDE_HOME/outbox/`), one per
/// message, mode 0600 (they hold a secret), named `reset-<UTC time>-<random>.txt` so they
/// sort by time. A real mail transport would implement `PasswordResetMailer` instead.
public struct OutboxMailer: PasswordResetMailer {
    public let directory: String
    private let now: @Sendable () -> Double

    public init(directory: String, now: @escaping @Sendable () -> Double = WallClock.now) {
        self.directory = directory
        self.now = now
    }

    public func sendPasswordReset(to email: String, token: String, expiresAt: Double) async throws {
        try PrivateFiles.makeDirectory(directory)
        let stamp = UTCTimestamp.rfc3339(epochSeconds: now()).filter { $0.isNumber }
        let name = "reset-\(stamp)-\(SecretToken.random().text.prefix(8)).txt"
        try PrivateFiles.write(Self.message(to: email, token: token, expiresAt: expiresAt), to: directory + "/" + name)
    }

    /// The message's text: headers, then how to use the token.
    static func message(to email: String, token: String, expiresAt: Double) -> String {
        """
        To: \(email)
        Subject: Reset your sonde password
        Token: \(token)
        Expires: \(UTCTimestamp.rfc3339(epochSeconds: expiresAt))

        Someone (hopefully you) asked to reset the password of the sonde account \(email).
        Choose a new password before \(UTCTimestamp.rfc3339(epochSeconds: expiresAt)) with:

            sonde reset-password --token \(token)

        The token works once. If you did not ask for this, ignore this message: your
        password stays as it is.

        """
    }
}
