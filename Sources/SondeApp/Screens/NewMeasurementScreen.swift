import Foundation
import Hummingbird
import SondeCapture

/// New measurement (`/measurements/new`): started by a POST from Main (409 while another
/// user measures), then live values of every channel several times a second, trends, the
/// time recorded, a Comment and Save measurement. Leaving without saving discards it:
/// once no page has asked for values for a few seconds, the server ends it.
struct NewMeasurementScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        let captures = environment.captures
        let measurements = environment.measurements
        screens.post(signedIn: AppRoute.newMeasurement.path) { _, _, session in
            _ = try captures.start(for: session.account)
            return .navigate(.newMeasurement)
        }
        screens.get(signedIn: AppRoute.newMeasurement.path) { _, context, session in
            guard let capture = captures.capture(for: session.account) else { return .navigate(.main) }
            captures.noteWatched(capture)
            let view = NewMeasurementView(
                capture: capture, trendColumns: captures.trendColumns(of: capture), values: capture.latest(),
                csrf: context.csrfToken)
            return .page(view.html)
        }
        screens.get(signedIn: AppRoute.newMeasurement.path + "/values") { _, _, session in
            // Ended (saved, discarded, or by another tab): the page goes back to Main.
            guard let capture = captures.capture(for: session.account) else {
                return .json("{\"navigate\":\"\(AppRoute.main.path)\"}")
            }
            captures.noteWatched(capture)
            return .json(Self.json(capture.latest()))
        }
        screens.get(signedIn: AppRoute.newMeasurement.path + "/trend/:slot/:channel") { _, context, session in
            guard let capture = captures.capture(for: session.account),
                let slot = context.parameters.get("slot", as: Int.self),
                let channel = context.parameters.get("channel", as: Int.self),
                let svg = captures.trendSVG(of: capture, slot: slot, channel: channel)
            else { throw WebError.notFound }
            return .download(bytes: Array(svg.utf8), fileName: "trend.svg", contentType: "image/svg+xml")
        }
        screens.post(signedIn: AppRoute.newMeasurement.path + "/save") { _, context, session in
            guard let capture = captures.capture(for: session.account) else { throw WebError.notFound }
            _ = try await capture.save(comment: context.form["comment"], with: measurements.service)
            return .navigate(.main, notice: .saved)
        }
        screens.post(signedIn: AppRoute.newMeasurement.path + "/discard") { _, _, session in
            await captures.capture(for: session.account)?.discard()
            return .navigate(.main, notice: .discarded)
        }
    }

    /// `{"elapsed": 3.2, "frames": 150, "channels": [{"name": ..., "values": [...]}]}`;
    /// a value not yet measured (or not finite) is null.
    static func json(_ values: LiveValues) -> String {
        let channels = values.channels.map { channel -> String in
            let numbers = channel.values.map { value -> String in value.isFinite ? String(value) : "null" }
                .joined(separator: ",")
            return "{\"name\":\(Alert.jsonString(channel.name)),\"values\":[\(numbers)]}"
        }.joined(separator: ",")
        return
            "{\"elapsed\":\(String(format: "%.2f", values.elapsedSeconds)),\"frames\":\(values.frameCount),\"channels\":[\(channels)]}"
    }
}
