import Hummingbird

/// What a screen refuses, with the HTTP status it is answered with.
enum WebError: Error, Equatable {
    /// No such measurement in the account (another user's alike): 404.
    case notFound
    /// A POST without this browser's CSRF token: 403.
    case forbidden
    /// Another user is measuring: 409.
    case deviceBusy(String)
    /// The device is not paired: 409.
    case deviceNotConnected

    var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .forbidden: .forbidden
        case .deviceBusy, .deviceNotConnected: .conflict
        }
    }

    var message: String {
        switch self {
        case .notFound: "Not found"
        case .forbidden: "This form has expired; reload the page and try again"
        case .deviceBusy(let who): "Device busy: \(who) is measuring"
        case .deviceNotConnected: "Device not connected"
        }
    }
}
