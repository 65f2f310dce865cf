import Hummingbird
import SondeMeasurements
import Testing

@testable import SondeApp

/// `AppRoute` spells every path: each route's address, the router's pattern it is served
/// under, and nothing registered that does not come from it.
@Suite struct AppRouteTests {
    /// One of each route, with the address it had as a literal before `AppRoute` spelled it.
    static let addresses: [(AppRoute, String)] = [
        (.login, "/login"), (.register, "/register"), (.forgotPassword, "/forgot-password"),
        (.resetPassword(token: nil), "/reset-password"),
        (.resetPassword(token: "a b&c"), "/reset-password?token=a%20b%26c"),
        (.main, "/"), (.mainPage(1), "/"), (.mainPage(3), "/?page=3"), (.pairDevice, "/device/pair"),
        (.deviceEvents, "/device/events"), (.logout, "/logout"), (.exportAll, "/measurements/export.zip"),
        (.newMeasurement, "/measurements/new"),
        (.newMeasurementValues(capture: "ab12"), "/measurements/new/values?capture=ab12"),
        (.newMeasurementEvents(capture: "ab12"), "/measurements/new/events?capture=ab12"),
        (.newMeasurementTrend(slot: 2, channel: 1), "/measurements/new/trend/2/1"),
        (.stopMeasurement, "/measurements/new/stop"), (.saveNewMeasurement, "/measurements/new/save"),
        (.discardNewMeasurement, "/measurements/new/discard"), (.draft("0f"), "/drafts/0f"),
        (.saveDraft("0f"), "/drafts/0f/save"), (.discardDraft("0f"), "/drafts/0f/discard"),
        (.measurement(MeasurementID(12)), "/measurements/12"),
        (.measurementExport(MeasurementID(12), .csv), "/measurements/12/export.csv"),
        (.measurementExport(MeasurementID(12), .parquet), "/measurements/12/export.parquet"),
        (.measurementReport(MeasurementID(12)), "/measurements/12/report"),
        (.deleteMeasurement(MeasurementID(12)), "/measurements/12/delete"), (.stylesheet, "/assets/app.css"),
        (.script, "/assets/app.js"), (.icon, "/assets/icon.svg"),
    ]

    @Test func everyRouteHasTheAddressItHadAndMatchesItsPattern() {
        for (route, address) in Self.addresses {
            #expect(route.path == address)
            let path = address.split(separator: "?", maxSplits: 1)[0]
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let patternParts = route.pattern.text.split(separator: "/", omittingEmptySubsequences: false)
            #expect(parts.count == patternParts.count, "\(address) against \(route.pattern)")
            for (part, patternPart) in zip(parts, patternParts) where !patternPart.hasPrefix(":") {
                #expect(part == patternPart, "\(address) against \(route.pattern)")
            }
        }
        #expect(StaticAssets.stylesheetPath == "/assets/app.css" && StaticAssets.iconPath == "/assets/icon.svg")
    }

    /// Every route the router serves is the pattern of an `AppRoute`, and every pattern is served.
    @Test func everyRegisteredPathComesFromAppRoute() throws {
        let router = AppRouter(environment: try AppHarness().environment).make()
        let registered = Set(router.routes.map { $0.path.description })
        let patterns = Set(Self.addresses.map { RouterPath($0.0.pattern.text).description })
        #expect(registered.subtracting(patterns).isEmpty, "served, but not an AppRoute pattern")
        #expect(patterns.subtracting(registered).isEmpty, "an AppRoute pattern that is not served")
    }
}
