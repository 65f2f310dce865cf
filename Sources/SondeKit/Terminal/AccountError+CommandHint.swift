public import SondeAccounts

extension AccountError {
    /// The library's message with the command that helps, which only the CLI knows
    /// (`Not logged in — run sonde login`).
    public var withCommandHint: AccountError {
        var error = self
        switch code {
        case .notLoggedIn: error.message += " — run sonde login"
        case .invalidResetToken: error.message += " with sonde forgot-password"
        case .emailTaken: error.message += "; log in with sonde login"
        default: break
        }
        return error
    }
}
