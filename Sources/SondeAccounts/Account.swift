/// A user's database identity: stable across email changes, never shown as a secret.
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
}

/// A registered user as the rest of sonde sees it: no password hash, no tokens.
public struct Account: Hashable, Sendable {
    public var id: UserID
    /// Normalised (trimmed, lower-cased) email address.
    public var email: String
    /// The address as the user typed it (trimmed) when the session it came from began, at
    /// login or registration: what a greeting shows (`Welcome, Ann@Example.com!`). Nil for
    /// an account read without a session. Not part of the account's identity (`==`).
    public var emailAsTyped: String?

    public init(id: UserID, email: String, emailAsTyped: String? = nil) {
        self.id = id
        self.email = email
        self.emailAsTyped = emailAsTyped
    }

    /// The address to greet the user with: as typed, else the normalised one.
    public var greetingEmail: String { emailAsTyped ?? email }

    public static func == (a: Account, b: Account) -> Bool {
        a.id == b.id && a.email == b.email
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(email)
    }
}
