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

    public func sendAccountNotice(_ notice: AccountNotice, to email: String) async throws {
        try PrivateFiles.makeDirectory(directory)
        let stamp = UTCTimestamp.rfc3339(epochSeconds: now()).filter { $0.isNumber }
        // The same name pattern for both notices: the outbox's listing does not tell them apart.
        let name = "account-\(stamp)-\(SecretToken.random().text.prefix(8)).txt"
        try PrivateFiles.write(Self.message(notice, to: email), to: directory + "/" + name)
    }

    /// A registration notice's text.
    static func message(_ notice: AccountNotice, to email: String) -> String {
        switch notice {
        case .welcome:
            return """
                To: \(email)
                Subject: Your sonde account

                A sonde account now exists for \(email). Log in with:

                    sonde login --email \(email)

                """
        case .alreadyRegistered:
            return """
                To: \(email)
                Subject: You already have a sonde account

                Someone (hopefully you) tried to register \(email), which already has a sonde
                account; nothing was changed. Log in with sonde login --email \(email), or if
                you forgot the password:

                    sonde forgot-password --email \(email)

                """
        }
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
