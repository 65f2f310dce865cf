package import SondeCore

/// The text of a `--database` URL that both engines' parsers share: the forms it may take,
/// and its error, which shows the URL without its password (`StoreURL` parses the kind,
/// `PostgresLocation` the `postgres://` rest).
package enum StoreURLSyntax {
    package static let expectedForms =
        "expected sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full]"

    package static func invalid(_ text: String, _ problem: String) -> SondeError {
        SondeError(.invalidArgument, "database URL '\(redacted(text))': \(problem); \(expectedForms)")
    }

    /// `text` with the password of a `scheme://user:password@host` URL replaced by `***`.
    package static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return text
        }
        return String(text[..<authority.index(after: colon)]) + "***" + String(text[at...])
    }
}
