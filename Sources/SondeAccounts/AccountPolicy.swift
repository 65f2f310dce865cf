/// The rules of accounts: what a valid email and password are, how long sessions and
/// reset tokens live, and how failed logins lock an account.
public struct AccountPolicy: Sendable, Equatable {
    /// Characters (not bytes) a new password needs at least.
    public var minimumPasswordLength = 8
    /// Upper bound in UTF-8 bytes, so nobody makes the hasher read megabytes.
    public var maximumPasswordBytes = 1024
    /// Seconds a session lasts from login (30 days).
    public var sessionLifetime: Double = 30 * 86_400
    /// Seconds a password-reset token stays valid (15 minutes).
    public var resetTokenLifetime: Double = 15 * 60
    /// Consecutive failures that lock an account.
    public var failuresBeforeLock = 5
    /// Seconds of the first lock; each further failure doubles it.
    public var firstLockDuration: Double = 30
    /// Longest lock, in seconds (1 hour).
    public var longestLockDuration: Double = 3600

    public init() {}

    /// Seconds an account stays locked after its `failures`-th consecutive failure, or nil
    /// below the threshold: 30 s at 5, 60 s at 6, 120 s at 7 ... up to an hour.
    public func lockDuration(afterFailures failures: Int) -> Double? {
        guard failures >= failuresBeforeLock else { return nil }
        let doublings = min(failures - failuresBeforeLock, 30)
        return min(firstLockDuration * Double(1 << doublings), longestLockDuration)
    }

    /// Seconds left of a lock at `now`, rounded up, or nil if the account is not locked.
    public func lockRemaining(_ failures: LoginFailures?, now: Double) -> Int? {
        guard let failures, let duration = lockDuration(afterFailures: failures.count) else { return nil }
        let remaining = failures.lastFailureAt + duration - now
        return remaining > 0 ? Int(remaining.rounded(.up)) : nil
    }

    /// Trimmed and lower-cased: the key an account is found by.
    public static func normalize(email: String) -> String {
        String(email.trimmingWhitespace().lowercased())
    }

    /// The address as typed, without the blanks around it: what a greeting shows.
    public static func trimmed(email: String) -> String {
        String(email.trimmingWhitespace())
    }

    /// A plain, conservative form check (`local@domain.tld`, no spaces, one `@`, at most
    /// 254 bytes); whether mail could be delivered is not ours to know.
    public static func isValid(email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2 else { return false }
        let local = parts[0]
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let allowed: (Character) -> Bool = {
            !$0.isWhitespace && $0 != "@" && $0 != "," && $0 != "\"" && !$0.isASCIIControl
        }
        return !local.isEmpty && local.allSatisfy(allowed)
            && labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(allowed) }
            && labels.last.map { $0.count >= 2 } == true
    }

    /// Throws what is wrong with a new password.
    func checkNewPassword(_ password: String) throws(AccountError) {
        guard password.count >= minimumPasswordLength else { throw .weakPassword(minimum: minimumPasswordLength) }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw AccountError(.weakPassword, "Password too long: expected at most \(maximumPasswordBytes) bytes")
        }
    }

    /// `45 s`, `2 min`, `1 h`: rounded up to the unit shown.
    static func spell(seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\((seconds + 59) / 60) min" }
        return "\((seconds + 3599) / 3600) h"
    }
}

/// Consecutive failed logins for one email (known or not: unknown emails lock the same way,
/// so a lock says nothing about whether an account exists).
public struct LoginFailures: Sendable, Equatable {
    public var count: Int
    /// Seconds since 1970.
    public var lastFailureAt: Double

    public init(count: Int, lastFailureAt: Double) {
        self.count = count
        self.lastFailureAt = lastFailureAt
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}

extension Character {
    /// ASCII controls, and C1 controls and format characters too (U+009B is a terminal's
    /// CSI, U+202E reverses the text shown): none belongs in an address.
    fileprivate var isASCIIControl: Bool {
        unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}
