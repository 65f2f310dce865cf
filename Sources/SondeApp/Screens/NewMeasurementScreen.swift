import Foundation
import Hummingbird
import SondeAccounts
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
            .json(Self.update(of: Self.captureID(request), for: session.account, in: captures, signal: false).json)
        }
        screens.get(signedIn: .newMeasurementEvents) { request, _, session in
            try CaptureEvents.stream(capture: Self.captureID(request), for: session.account, captures: captures)
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
            guard let capture = captures.capture(for: session.account) else { throw WebError.notFound }
            // A refused comment leaves the recording running: the page says why, with the
            // comment as typed.
            let refused = { (refusal: SaveRefusal) in
                NewMeasurementView(
                    capture: capture, trendColumns: captures.trendColumns(of: capture), values: capture.latest(),
                    state: .refused(refusal), csrf: context.csrfToken
                ).html
            }
            return try await SaveRefusal.saving(context.form, refused: refused) { comment in
                let draft = try await Self.stop(capture, in: captures)
                _ = try await captures.drafts.save(
                    draft.id, comment: comment, for: session.account, with: measurements.service)
                return .navigate(.main, notice: .saved)
            }
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

    /// The `capture` query value: the id of the capture the page was opened for.
    static func captureID(_ request: Request) -> String {
        request.uri.queryParameters.get("capture").map { String($0) } ?? ""
    }

    /// What the page's script gets, by polling or as an event: the running capture's
    /// values (and, with `signal`, its waveform and spectrum); once it ended, where the page
    /// goes next (`ends`), or that its draft is being written and the page should ask again.
    static func update(
        of id: String, for account: Account, in captures: any CaptureService, signal: Bool
    ) -> (json: String, ends: Bool) {
        if let capture = captures.capture(for: account) {
            return (json(capture.latest(), signal: signal ? capture.signal() : nil), false)
        }
        // Ended (Stop in another tab, the time limit, a device failure): the page goes on
        // to its draft, or waits the moment it takes to write it.
        if captures.drafts.draft(id, for: account.id) != nil {
            return ("{\"navigate\":\(Alert.jsonString(AppRoute.draft(id).path))}", true)
        }
        if captures.isBeingKept(id, for: account.id) { return ("{\"keeping\":true}", false) }
        return ("{\"navigate\":\"\(AppRoute.main.path)\"}", true)
    }

    /// The trend of a capture that has ended: an empty chart of the live one's size.
    static let endedTrendSVG =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"380\" height=\"170\" viewBox=\"0 0 380 170\" "
        + "role=\"img\" aria-label=\"Recording ended\"></svg>"

    /// `{"elapsed": 3.2, "frames": 150, "channels": [{"name": ..., "values": [...]}]}`;
    /// a value not yet measured (or not finite) is null. With `signal`, also
    /// `"waveform": {"seconds": 0.08, "channels": [{"name": ..., "points": [...]}]}` and
    /// `"spectrum": {"hz": [...], "channels": [{"name": ..., "db": [...], "peakHz": 50}]}`,
    /// numbers to 4 significant digits (dB to 0.1).
    static func json(_ values: LiveValues, signal: LiveSignal? = nil) -> String {
        let channels = values.channels.map { channel -> String in
            let numbers = channel.values.map { value -> String in value.isFinite ? String(value) : "null" }
                .joined(separator: ",")
            return "{\"name\":\(Alert.jsonString(channel.name)),\"values\":[\(numbers)]}"
        }.joined(separator: ",")
        let plots = signal.map { ",\"waveform\":\(waveformJSON($0)),\"spectrum\":\(spectrumJSON($0))" } ?? ""
        return
            "{\"elapsed\":\(String(format: "%.2f", values.elapsedSeconds)),\"frames\":\(values.frameCount),\"channels\":[\(channels)]\(plots)}"
    }

    private static func numbers(_ values: [Double], _ format: String) -> String {
        "[" + values.map { $0.isFinite ? String(format: format, $0) : "null" }.joined(separator: ",") + "]"
    }

    private static func waveformJSON(_ signal: LiveSignal) -> String {
        let channels = signal.channels.map {
            "{\"name\":\(Alert.jsonString($0.name)),\"points\":\(numbers($0.waveform, "%.4g"))}"
        }.joined(separator: ",")
        return "{\"seconds\":\(String(format: "%.4g", signal.waveformSeconds)),\"channels\":[\(channels)]}"
    }

    private static func spectrumJSON(_ signal: LiveSignal) -> String {
        let channels = signal.channels.map { channel -> String in
            let peak = channel.peakHz.map { String(format: "%.4g", $0) } ?? "null"
            return
                "{\"name\":\(Alert.jsonString(channel.name)),\"db\":\(numbers(channel.spectrumDB, "%.1f")),\"peakHz\":\(peak)}"
        }.joined(separator: ",")
        return "{\"hz\":\(numbers(signal.frequencies, "%.4g")),\"channels\":[\(channels)]}"
    }
}
