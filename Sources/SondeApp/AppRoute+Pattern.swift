import SondeIO

extension AppRoute {
    /// A route as the router matches it: its path with `:name` where a value goes. Each
    /// path is written here once; `AppRoute.path` fills the values in, and `Screens` and the
    /// asset routes take nothing but a `Pattern`, so no route is registered under a literal.
    struct Pattern: Hashable, Sendable, CustomStringConvertible {
        let text: String

        private init(_ text: String) {
            self.text = text
        }

        var description: String { text }

        static let login = Pattern("/login")
        static let register = Pattern("/register")
        static let forgotPassword = Pattern("/forgot-password")
        static let resetPassword = Pattern("/reset-password")
        static let main = Pattern("/")
        static let pairDevice = Pattern("/device/pair")
        static let deviceEvents = Pattern("/device/events")
        static let logout = Pattern("/logout")
        static let exportAll = Pattern("/measurements/export.zip")
        static let newMeasurement = Pattern("/measurements/new")
        static let newMeasurementValues = Pattern("/measurements/new/values")
        static let newMeasurementEvents = Pattern("/measurements/new/events")
        static let newMeasurementTrend = Pattern("/measurements/new/trend/:slot/:channel")
        static let stopMeasurement = Pattern("/measurements/new/stop")
        static let saveNewMeasurement = Pattern("/measurements/new/save")
        static let discardNewMeasurement = Pattern("/measurements/new/discard")
        static let draft = Pattern("/drafts/:id")
        static let saveDraft = Pattern("/drafts/:id/save")
        static let discardDraft = Pattern("/drafts/:id/discard")
        static let measurement = Pattern("/measurements/:id")
        static func measurementExport(_ format: OutputFormat) -> Pattern {
            Pattern("/measurements/:id/export." + format.rawValue)
        }
        static let measurementReport = Pattern("/measurements/:id/report")
        static let deleteMeasurement = Pattern("/measurements/:id/delete")
        static let stylesheet = Pattern("/assets/app.css")
        static let script = Pattern("/assets/app.js")
        static let icon = Pattern("/assets/icon.svg")

        /// The path with `values` in place of the `:name` parts, in order.
        func path(_ values: String...) -> String {
            var remaining = values[...]
            return text.split(separator: "/", omittingEmptySubsequences: false).map { part in
                part.hasPrefix(":") ? remaining.popFirst() ?? String(part) : String(part)
            }.joined(separator: "/")
        }
    }
}
