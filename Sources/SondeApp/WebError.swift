import Hummingbird

/// What a screen refuses, with the HTTP status it is answered with.
enum WebError: Error, Equatable {
    /// No such measurement in the account (another user's alike): 404.
    case notFound
    /// A POST without this browser's CSRF token: 403.
    case forbidden
    /// A field the server refuses (the browser's checks can be skipped): 400, saying why.
    case badField(String)
    /// The server cannot do it now (its disk is full): 503, saying what happens next.
    case unavailable(String)

    /// A capture's draft that cannot be written (a full disk): said without the server's
    /// paths, which its log names.
    static let draftNotWritten = WebError.unavailable(
        "The measurement could not be written to the server's disk (it may be full). Nothing is lost: the server holds it in memory and lists it on Main as an unsaved measurement as soon as there is room"
    )

    var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .badField: .badRequest
        case .unavailable: .serviceUnavailable
        }
    }

    var message: String {
        switch self {
        case .notFound: "Not found"
        case .forbidden: "This form has expired; reload the page and try again"
        case .badField(let message), .unavailable(let message): message
        }
    }
}
