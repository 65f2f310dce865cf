import SondeIO
import SondeMeasurements

/// Every screen's address, in one place: links, redirects, form actions and the router's
/// routes all spell paths through this type, so a screen never hard-codes where another lives.
enum AppRoute: Equatable, Sendable {
    case login
    case register
    case forgotPassword
    case resetPassword(token: String?)
    case main
    /// Page `n` (from 1) of Main's list; page 1 is Main itself.
    case mainPage(Int)
    /// Main's Pair with device button.
    case pairDevice
    /// Main's device card as Server-Sent Events.
    case deviceEvents
    case logout
    /// Every measurement of the user as one zip (Settings' Export).
    case exportAll
    case newMeasurement
    /// The recording's live values, for the page of capture `id` (`?capture=ID`).
    case newMeasurementValues(capture: String)
    /// The same values, the waveform and the spectrum as Server-Sent Events (`?capture=ID`).
    case newMeasurementEvents(capture: String)
    /// The recording's trend of feature `slot` on `channel`, as SVG.
    case newMeasurementTrend(slot: Int, channel: Int)
    case stopMeasurement
    case saveNewMeasurement
    case discardNewMeasurement
    /// An unsaved measurement (a capture that ended unsaved), its Save and its Discard.
    case draft(String)
    case saveDraft(String)
    case discardDraft(String)
    case measurement(MeasurementID)
    /// A saved measurement as a file (`export.csv`, `export.parquet`).
    case measurementExport(MeasurementID, OutputFormat)
    case measurementReport(MeasurementID)
    case deleteMeasurement(MeasurementID)
    /// The app's own stylesheet, script and icon.
    case stylesheet
    case script
    case icon

    var path: String {
        switch self {
        case .resetPassword(let token):
            token.map { pattern.text + "?token=" + Self.queryEscaped($0) } ?? pattern.text
        case .mainPage(let page): page <= 1 ? pattern.text : pattern.text + "?page=\(page)"
        case .newMeasurementValues(let capture), .newMeasurementEvents(let capture):
            pattern.text + "?capture=" + Self.queryEscaped(capture)
        case .newMeasurementTrend(let slot, let channel): pattern.path(String(slot), String(channel))
        case .draft(let id), .saveDraft(let id), .discardDraft(let id): pattern.path(id)
        case .measurement(let id), .measurementExport(let id, _), .measurementReport(let id),
            .deleteMeasurement(let id):
            pattern.path(id.description)
        case .login, .register, .forgotPassword, .main, .pairDevice, .deviceEvents, .logout, .exportAll,
            .newMeasurement, .stopMeasurement, .saveNewMeasurement, .discardNewMeasurement, .stylesheet, .script,
            .icon:
            pattern.text
        }
    }

    /// The router's pattern of this route (its values left out).
    var pattern: Pattern {
        switch self {
        case .login: .login
        case .register: .register
        case .forgotPassword: .forgotPassword
        case .resetPassword: .resetPassword
        case .main, .mainPage: .main
        case .pairDevice: .pairDevice
        case .deviceEvents: .deviceEvents
        case .logout: .logout
        case .exportAll: .exportAll
        case .newMeasurement: .newMeasurement
        case .newMeasurementValues: .newMeasurementValues
        case .newMeasurementEvents: .newMeasurementEvents
        case .newMeasurementTrend: .newMeasurementTrend
        case .stopMeasurement: .stopMeasurement
        case .saveNewMeasurement: .saveNewMeasurement
        case .discardNewMeasurement: .discardNewMeasurement
        case .draft: .draft
        case .saveDraft: .saveDraft
        case .discardDraft: .discardDraft
        case .measurement: .measurement
        case .measurementExport(_, let format): .measurementExport(format)
        case .measurementReport: .measurementReport
        case .deleteMeasurement: .deleteMeasurement
        case .stylesheet: .stylesheet
        case .script: .script
        case .icon: .icon
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
