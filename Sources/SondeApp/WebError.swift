import Hummingbird

/// What a screen refuses, with the HTTP status it is answered with.
enum WebError: Error, Equatable {
    /// No such measurement in the account (another user's alike): 404.
    case notFound
    /// A POST without this browser's CSRF token: 403.
    case forbidden
    /// A field the server refuses (the browser's checks can be skipped): 400, saying why.
    case badField(String)

    var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .badField: .badRequest
        }
    }

    var message: String {
        switch self {
        case .notFound: "Not found"
        case .forbidden: "This form has expired; reload the page and try again"
        case .badField(let message): message
        }
    }
}
