import Foundation
import Hummingbird
import SondeCore
import Synchronization
import Testing

@testable import SondeApp

/// Main's device card, New measurement (start, live values, trends, Stop, Save, Discard)
/// and the drafts a capture leaves, on the simulated pump, through the router in process.
@Suite struct CaptureRoutesTests {
    @Test func pairingThroughMainConnectsTheDeviceAndExportZipsTheMeasurements() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            let main = try await ann.get("/")
            #expect(main.text.contains(#"id="device-status">Device not connected</p>"#))
            #expect(main.text.contains(#"<p class="empty" id="no-measurements">No measurements yet.</p>"#))
            let paired = try await ann.post("/device/pair")
            #expect(paired.status == .seeOther && paired.location == "/", "\(paired.summary)")
            let after = try await ann.get("/")
            #expect(after.text.contains(#"id="device-status">Device connected</p>"#))
            #expect(after.text.contains("Start new measurement"))

            let id = try await ann.measure(comment: "pump 3")
            let zip = try await ann.get("/measurements/export.zip")
            #expect(zip.status == .ok && zip.headers[.contentType] == "application/zip")
            #expect(zip.headers[.contentDisposition] == #"attachment; filename="sonde-measurements.zip""#)
            #expect(zip.text.hasPrefix("PK"), "not a zip archive")
            #expect(
                zip.text.contains("measurements/measurements.json")
                    && zip.text.contains("measurements/measurement-\(id).csv"))
        }
    }

    @Test func aNewMeasurementShowsLiveValuesAndTrendsAndIsSavedWithItsComment() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            // Nothing recording: New measurement goes back to Main.
            #expect(try await ann.get("/measurements/new").location == "/")
            let started = try await ann.post("/measurements/new")
            #expect(started.status == .seeOther && started.location == "/measurements/new")
            let page = try await ann.get("/measurements/new")
            #expect(page.status == .ok && page.title == "New measurement")
            let values = try #require(page.first(#"data-values="([^"]+)""#)).replacingOccurrences(
                of: "&amp;", with: "&")
            try await ann.waitForValues(values)
            let live = try await ann.get(values)
            #expect(live.headers[.contentType] == "application/json")
            #expect(live.text.contains(#""name":"accel_x""#) && live.text.contains(#""name":"accel_y""#))
            // Another tab of the same user finds the same recording.
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            #expect(try await ann.get("/").text.contains("Back to your measurement"))

            let trend = try await ann.get("/measurements/new/trend/0/1")
            #expect(trend.status == .ok && trend.headers[.contentType] == "image/svg+xml")
            #expect(trend.text.hasPrefix("<svg"))
            for missing in [
                "/measurements/new/trend/9/0", "/measurements/new/trend/0/9", "/measurements/new/trend/x/0",
            ] {
                #expect(try await ann.get(missing).status == .notFound, "\(missing)")
            }

            // A comment the server refuses leaves the recording running; without a script the
            // page comes again with why and the comment as typed (the first line break kept).
            let refused = try await ann.post("/measurements/new/save", [("comment", "\nbad <\u{1}>")])
            #expect(refused.status == .badRequest && refused.title == "New measurement")
            #expect(refused.alert == "The comment holds a control character (U+0001); remove it")
            #expect(refused.text.contains("\">\n\nbad &lt;\u{1}&gt;</textarea>"), "the comment as typed")
            #expect(refused.text.contains(#"</div><form method="post" action="/measurements/new/save""#))
            // The page's script gets the alert to show in place (200: not a failed request).
            let scripted = try await ann.post(
                "/measurements/new/save", [("comment", "bad\u{1}")], headers: [.accept: "application/json"])
            #expect(scripted.status == .ok && scripted.headers[.contentType] == "application/json")
            #expect(scripted.alert == "The comment holds a control character (U+0001); remove it")
            #expect(try await ann.get("/measurements/new").status == .ok)

            let saved = try await ann.post("/measurements/new/save", [("comment", "pump <3>")])
            #expect(saved.status == .seeOther && saved.location == "/?notice=saved", "\(saved.summary)")
            let main = try await ann.get("/?notice=saved")
            #expect(main.notice == "Measurement saved.")
            #expect(main.text.contains(#"<span class="comment">pump &lt;3&gt;</span>"#))
            #expect(main.text.contains(#"id="device-status">Device connected</p>"#), "the device is free again")
            // Ended: the values tell the page to go to Main; the trend is blank, not a 404.
            let ended = try await ann.get(values)
            #expect(ended.text == #"{"navigate":"/"}"#)
            #expect(try await ann.get("/measurements/new/trend/0/0").text == NewMeasurementScreen.endedTrendSVG)
        }
    }

    @Test func stopLeavesADraftThatIsSavedOrDiscardedAndTheDeviceIsBusyMeanwhile() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            var bob = Browser(client)
            try await ann.register("ann@example.org")
            try await bob.register("bob@example.org")
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            let page = try await ann.get("/measurements/new")
            let values = try #require(page.first(#"data-values="([^"]+)""#)).replacingOccurrences(
                of: "&amp;", with: "&")
            let capture = try #require(Page.first(#"capture=([0-9a-f]+)"#, in: values))

            // Bob sees the device busy and cannot start.
            let busy = try await bob.get("/")
            #expect(busy.text.contains(#"id="device-status">Device busy</p>"#))
            #expect(busy.text.contains("ann@example.org is measuring with"))
            let refused = try await bob.post("/measurements/new")
            #expect(refused.status == .conflict)
            #expect(refused.alert?.hasPrefix("The device is busy: ann@example.org has been measuring since ") == true)

            let stopped = try await ann.post("/measurements/new/stop")
            #expect(stopped.status == .seeOther && stopped.location == "/drafts/\(capture)", "\(stopped.summary)")
            #expect(try await ann.get(values).text == #"{"navigate":"/drafts/\#(capture)"}"#)
            // Stop again (another tab): nothing recording, back to Main.
            #expect(try await ann.post("/measurements/new/stop").location == "/")
            let draft = try await ann.get("/drafts/\(capture)")
            #expect(draft.status == .ok && draft.title == "Unsaved measurement")
            #expect(draft.text.contains(#"<dd id="draft-reason">stopped</dd>"#))
            #expect(try await ann.get("/").text.contains(#"<li><a href="/drafts/\#(capture)">"#))
            #expect(try await bob.get("/").text.contains("Device connected"), "the device is free after Stop")

            let long = String(repeating: "x", count: FormFields.commentLimit + 1)
            let tooLong = try await ann.post("/drafts/\(capture)/save", [("comment", long)])
            #expect(tooLong.status == .badRequest && tooLong.title == "Unsaved measurement")
            #expect(tooLong.alert == "The comment is longer than 2000 characters")
            #expect(tooLong.text.contains(">\n\(long)</textarea>"), "the comment as typed")
            #expect(try await ann.get("/drafts/\(capture)").status == .ok, "a refused save keeps the draft")

            let saved = try await ann.post("/drafts/\(capture)/save", [("comment", "from a draft")])
            #expect(saved.status == .seeOther && saved.location == "/?notice=saved")
            #expect(try await ann.get("/drafts/\(capture)").status == .notFound, "a saved draft is still there")
            #expect(try await ann.get("/").text.contains("from a draft"))

            // A second recording, discarded from its draft.
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            let second = try #require(try await ann.post("/measurements/new/stop").location)
            #expect(second.hasPrefix("/drafts/") && second != "/drafts/\(capture)")
            let discarded = try await ann.post(second + "/discard")
            #expect(discarded.status == .seeOther && discarded.location == "/?notice=discarded")
            #expect(try await ann.get("/?notice=discarded").notice == "The measurement was discarded.")
            #expect(try await ann.get(second).status == .notFound)

            // Discard while recording: no draft, nothing saved.
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            let thrown = try await ann.post("/measurements/new/discard")
            #expect(thrown.status == .seeOther && thrown.location == "/?notice=discarded")
            let main = try await ann.get("/")
            #expect(!main.text.contains("Unsaved measurement from"), "a discarded recording left a draft")
            #expect(main.text.components(separatedBy: #"<li><a href="/measurements/"#).count == 2)
        }
    }

    @Test func logoutAndTheTimeLimitKeepTheRecordingAsADraft() async throws {
        // Logout, with the 10-minute limit: beside the whole suite on 2 cores, a 1-second
        // limit once ended the capture before the logout did.
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            try await ann.post("/logout")
            try await ann.get("/login")
            try await ann.post("/login", [("email", "ann@example.org"), ("password", AppHarness.password)])
            let main = try await ann.get("/")
            #expect(main.text.contains("ended: logout. Save or Discard"), "\(main.text)")
        }
        let limited = try AppHarness(longestCaptureSeconds: 1)
        try await limited.pairDevice()
        try await limited.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            // Left to itself, a capture ends at its limit and the server's tick keeps it as a draft.
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            var kept = false
            for _ in 0..<300 where !kept {
                try await Task.sleep(for: .milliseconds(20))
                kept = try await ann.get("/").text.contains("ended: the 1-second limit. Save or Discard")
            }
            #expect(kept, "no draft 6 s after a 1-second limit")
        }
    }

    @Test func theDeviceCardStreamsItsStateAsServerSentEvents() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        let token = try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            return try #require(ann.cookies[SessionMiddleware.sessionCookie])
        }
        let account = try #require(try await harness.environment.accounts.account(token: token))
        let session = WebSession(token: token, account: account)
        guard
            case .stream(let body, let contentType) = try DeviceEvents.stream(
                for: session, csrf: "token", environment: harness.environment)
        else {
            Issue.record("the device events are not a stream")
            return
        }
        #expect(contentType == "text/event-stream")
        let sink = EventSink()
        await #expect(throws: EventSink.Enough.self) { try await body.write(sink.writer) }
        let text = sink.text.withLock { $0 }
        #expect(text.hasPrefix("retry: 1000\n\nevent: device\ndata: {\"state\":\""))
        #expect(text.contains("Device connected"), "\(text)")
    }
}

/// Collects a streamed body and ends it after its first event.
private final class EventSink: Sendable {
    let text = Mutex("")

    struct Enough: Error {}

    var writer: Writer { Writer(sink: self) }

    struct Writer: ResponseBodyWriter {
        let sink: EventSink

        mutating func write(_ buffer: ByteBuffer) async throws {
            let text = sink.text.withLock { text in
                text += String(buffer: buffer)
                return text
            }
            if text.contains("event: device") { throw Enough() }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
