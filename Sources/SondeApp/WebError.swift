import Hummingbird

/// What a screen refuses, with the HTTP status it is answered with.
enum WebError: Error, Equatable {
    /// No such measurement in the account (another user's alike): 404.
    case notFound
    /// A POST without this browser's CSRF token: 403.
    case forbidden

    var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .forbidden: .forbidden
        }
    }

    var message: String {
        switch self {
        case .notFound: "Not found"
        case .forbidden: "This form has expired; reload the page and try again"
        }
    }
}
