import SondeMeasurements

/// Every screen's address, in one place: links, redirects and the router's routes all
/// spell paths through this type, so a screen never hard-codes where another lives.
enum AppRoute: Equatable, Sendable {
    case login
    case register
    case forgotPassword
    case resetPassword(token: String?)
    case main
    /// Page `n` (from 1) of Main's list; page 1 is Main itself.
    case mainPage(Int)
    case newMeasurement
    /// The recording's live values, for the page of capture `id` (`?capture=ID`).
    case newMeasurementValues(capture: String)
    case stopMeasurement
    case saveNewMeasurement
    case discardNewMeasurement
    /// An unsaved measurement (a capture that ended unsaved), its Save and its Discard.
    case draft(String)
    case saveDraft(String)
    case discardDraft(String)
    /// Main's device card as Server-Sent Events.
    case deviceEvents
    case measurement(MeasurementID)

    var path: String {
        switch self {
        case .login: "/login"
        case .register: "/register"
        case .forgotPassword: "/forgot-password"
        case .resetPassword(let token):
            token.map { "/reset-password?token=" + Self.queryEscaped($0) } ?? "/reset-password"
        case .main: "/"
        case .mainPage(let page): page <= 1 ? "/" : "/?page=\(page)"
        case .newMeasurement: "/measurements/new"
        case .newMeasurementValues(let capture): "/measurements/new/values?capture=" + Self.queryEscaped(capture)
        case .stopMeasurement: "/measurements/new/stop"
        case .saveNewMeasurement: "/measurements/new/save"
        case .discardNewMeasurement: "/measurements/new/discard"
        case .draft(let id): "/drafts/\(id)"
        case .saveDraft(let id): "/drafts/\(id)/save"
        case .discardDraft(let id): "/drafts/\(id)/discard"
        case .deviceEvents: "/device/events"
        case .measurement(let id): "/measurements/\(id)"
        }
    }

    /// A query value with everything but unreserved characters percent-encoded.
    static func queryEscaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return result
    }
}
