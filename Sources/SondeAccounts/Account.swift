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

    public init(id: UserID, email: String) {
        self.id = id
        self.email = email
    }
}
