import Foundation
import Hummingbird
import SondeCapture
import SondeCore

/// New measurement (`/measurements/new`): started by a POST from Main (409 while another
/// user measures), then live values of every channel several times a second, trends, the
/// time recorded; Stop (the recording ends, the device is free, the measurement waits as a
/// draft), Save measurement (stop and save with the comment) and Discard (after a
/// confirmation). The capture belongs to the server: a page that sleeps or goes away
/// changes nothing (issue 44).
struct NewMeasurementScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        let captures = environment.captures
        let measurements = environment.measurements
        screens.post(signedIn: .newMeasurement) { _, _, session in
            _ = try captures.start(for: session.account)
            return .navigate(.newMeasurement)
        }
        screens.get(signedIn: .newMeasurement) { _, context, session in
            guard let capture = captures.capture(for: session.account) else { return .navigate(.main) }
            let view = NewMeasurementView(
                capture: capture, trendColumns: captures.trendColumns(of: capture), values: capture.latest(),
                csrf: context.csrfToken)
            return .page(view.html)
        }
        screens.get(signedIn: .newMeasurementValues) { request, _, session in
            if let capture = captures.capture(for: session.account) {
                return .json(Self.json(capture.latest()))
            }
            // Ended (Stop in another tab, the time limit, a device failure): the page goes on
            // to its draft, or waits the moment it takes to write it.
            let id = request.uri.queryParameters.get("capture").map { String($0) } ?? ""
            if captures.drafts.draft(id, for: session.account.id) != nil {
                return .json("{\"navigate\":\(Alert.jsonString(AppRoute.draft(id).path))}")
            }
            if captures.isBeingKept(id, for: session.account.id) { return .json("{\"keeping\":true}") }
            return .json("{\"navigate\":\"\(AppRoute.main.path)\"}")
        }
        screens.get(signedIn: .newMeasurementTrend) { _, context, session in
            guard let slot = context.parameters.get("slot", as: Int.self),
                let channel = context.parameters.get("channel", as: Int.self)
            else { throw WebError.notFound }
            // Ended (a device failure, Stop in another tab, the time limit): the page goes to
            // its draft at its next poll; a trend it asked for meanwhile is blank, not a 404
            // the browser logs as an error.
            let svg =
                if let capture = captures.capture(for: session.account) {
                    captures.trendSVG(of: capture, slot: slot, channel: channel)
                } else {
                    Self.endedTrendSVG
                }
            guard let svg else { throw WebError.notFound }
            return .download(
                ResponseBody(byteBuffer: ByteBuffer(string: svg)), fileName: "trend.svg", contentType: "image/svg+xml")
        }
        screens.post(signedIn: .stopMeasurement) { _, _, session in
            guard let capture = captures.capture(for: session.account) else { return .navigate(.main) }
            let draft = try await Self.stop(capture, in: captures)
            return .navigate(.draft(draft.id))
        }
        screens.post(signedIn: .saveNewMeasurement) { _, context, session in
            // A refused comment leaves the recording running.
            let comment = try FormFields.comment(context.form["comment"])
            guard let capture = captures.capture(for: session.account) else { throw WebError.notFound }
            let draft = try await Self.stop(capture, in: captures)
            _ = try await captures.drafts.save(
                draft.id, comment: comment, for: session.account, with: measurements.service)
            return .navigate(.main, notice: .saved)
        }
        screens.post(signedIn: .discardNewMeasurement) { _, _, session in
            if let capture = captures.capture(for: session.account) {
                let draft = try await Self.stop(capture, in: captures)
                captures.drafts.discard(draft.id, for: session.account.id)
            }
            return .navigate(.main, notice: .discarded)
        }
    }

    /// Stops `capture` and keeps its draft; a draft the disk cannot take is answered 503
    /// with what happens to it (the server keeps trying), not a bare 500.
    static func stop(_ capture: LiveCapture, in captures: any CaptureService) async throws -> CaptureDraft {
        do {
            return try await captures.stop(capture, reason: "stopped")
        } catch let error as SondeError where error.code == .io {
            throw WebError.draftNotWritten
        }
    }

    /// The trend of a capture that has ended: an empty chart of the live one's size.
    static let endedTrendSVG =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"170\" viewBox=\"0 0 380 170\" "
        + "role=\"img\" aria-label=\"Recording ended\"></svg>"

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
