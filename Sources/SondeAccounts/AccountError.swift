/// Why an account operation was refused, with the exact line a person is shown.
///
/// The wording is part of the product (issue 5): the same `Error: Invalid credentials`
/// for an unknown email and a wrong password, so that nobody learns which emails exist.
/// Messages name no `sonde` command: each front end adds its own hint (the CLI's
/// "— run sonde login", the web's link).
public struct AccountError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Code: String, Sendable {
        /// An email or password was empty.
        case missingFields
        /// The email is not of the form `name@domain.tld`.
        case invalidEmail
        /// The new password is shorter than `AccountPolicy.minimumPasswordLength`.
        case weakPassword
        /// `register` with an email that already has an account.
        case emailTaken
        /// Unknown email or wrong password (deliberately not told apart).
        case invalidCredentials
        /// Too many failed logins: wait `retryAfter` seconds.
        case locked
        /// The command needs a session and there is none (or it expired or was revoked).
        case notLoggedIn
        /// Every password-hashing slot is taken and the wait limit passed: try again in
        /// `retryAfter` seconds (the web answers 503 with Retry-After).
        case busy
        /// A reset token that is unknown, used or expired.
        case invalidResetToken
        /// The two entries of a new password differ.
        case passwordMismatch
        /// A password is needed, standard input is not a terminal and no
        /// `--password-stdin` was given.
        case noPasswordSource
    }

    public var code: Code
    /// What happened, without the `Error: ` prefix.
    public var message: String
    /// For `.locked` and `.busy`: seconds until the next attempt is worth making.
    public var retryAfter: Int?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The line to print: `Please fill all fields` and the not-logged-in hint stand alone,
    /// everything else reads `Error: ...`.
    public var description: String {
        switch code {
        case .missingFields, .notLoggedIn: message
        default: "Error: \(message)"
        }
    }

    public static let missingFields = AccountError(.missingFields, "Please fill all fields")
    public static let invalidCredentials = AccountError(.invalidCredentials, "Invalid credentials")
    public static let notLoggedIn = AccountError(.notLoggedIn, "Not logged in")
    public static let invalidResetToken = AccountError(
        .invalidResetToken, "Invalid or expired reset token; ask for a new one")
    public static let passwordMismatch = AccountError(.passwordMismatch, "The passwords do not match")

    public static func invalidEmail(_ email: String) -> AccountError {
        AccountError(
            .invalidEmail, "Invalid email address '\(printable(email))': expected a form like name@example.com")
    }

    /// `text` with control and format characters escaped (`\u{1B}`), so that an address
    /// typed with terminal escape sequences is shown, not obeyed, when it is echoed back.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func weakPassword(minimum: Int) -> AccountError {
        AccountError(.weakPassword, "Password too short: expected at least \(minimum) characters")
    }

    public static func emailTaken(_ email: String) -> AccountError {
        AccountError(.emailTaken, "An account already exists for \(email)")
    }

    /// - Parameters:
    ///   - failures: consecutive failed logins so far.
    ///   - retryAfter: seconds until the lock ends, rounded up.
    public static func locked(failures: Int, retryAfter: Int) -> AccountError {
        AccountError(
            .locked,
            "Too many failed logins (\(failures)): this account is locked; try again in \(AccountPolicy.spell(seconds: retryAfter))",
            retryAfter: retryAfter
        )
    }

    /// - Parameter retryAfter: seconds, at least 1, until a hashing slot is likely free.
    public static func busy(retryAfter: Int) -> AccountError {
        AccountError(
            .busy, "Too many logins at once; try again in \(AccountPolicy.spell(seconds: retryAfter))",
            retryAfter: retryAfter)
    }
}
