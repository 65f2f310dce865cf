import Foundation
import HummingbirdTesting
import Synchronization
import Testing

@testable import SondeApp

/// The New measurement screen's Server-Sent Events, in process: five updates a second with
/// the values, a waveform and a spectrum of bounded size, the spectrum's strongest
/// component at the simulated pump's tone, and after Stop one last event that sends the page
/// to its draft, then the end of the stream.
@Suite struct CaptureEventsTests {
    @Test func theStreamCarriesTheWaveformAndSpectrumThenTheDraft() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            #expect(try await ann.post(AppRoute.newMeasurement.path).location == AppRoute.newMeasurement.path)
            let page = try await ann.get(AppRoute.newMeasurement.path)
            let values = try #require(page.first(#"data-values="([^"]+)""#), "no values' address")
            let events = try #require(page.first(#"data-events="([^"]+)""#), "no events' address")
            #expect(events.hasPrefix("/measurements/new/events?capture="))
            // The plots are on the page before the script draws: named, described, with their own ids.
            for id in ["wave-0", "spectrum-0"] {
                #expect(
                    page.text.contains(
                        #"id="\#(id)" data-plot="#) && page.text.contains(#"aria-labelledby="\#(id)-title""#)
                        && page.text.contains(#"<p class="plot-text" id="\#(id)-text">"#), "\(id) in \(page.text)")
            }
            try await ann.waitForValues(values)

            // Stop once the stream has written five updates (about a second; paced by the events,
            // not the clock: beside the whole suite on 2 cores a second and a half gave two):
            // the stream says where the page goes, and ends.
            let stopper = ann
            let before = CaptureEvents.updatesWritten.load(ordering: .relaxed)
            async let stopped: Page = {
                var browser = stopper
                let clock = ContinuousClock()
                let giveUp = clock.now.advanced(by: .seconds(300))
                while CaptureEvents.updatesWritten.load(ordering: .relaxed) - before < 5, clock.now < giveUp {
                    try await Task.sleep(for: .milliseconds(50))
                }
                return try await browser.post(AppRoute.stopMeasurement.path)
            }()
            let stream = try await ann.get(events)
            let stop = try await stopped
            let draft = try #require(stop.location, "\(stop.summary)")
            #expect(draft.hasPrefix("/drafts/"))
            #expect(stream.headers[.contentType] == "text/event-stream")
            #expect(stream.text.hasPrefix("retry: 1000\n\n"))

            let updates = stream.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("event: update\ndata: ") }
            let objects = try updates.map { event -> [String: Any] in
                let data = Data(event.dropFirst("event: update\ndata: ".count).utf8)
                #expect(data.count < 32 * 1024, "an event of \(data.count) bytes")
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            // Five or more, then the draft.
            #expect(objects.count >= 4, "\(objects.count) updates: \(stream.text.prefix(400))")
            #expect(objects.last?["navigate"] as? String == draft, "the last update: \(updates.last ?? "")")
            // Between the values and the draft, "keeping" while the draft is written.
            let live = objects.filter { $0["frames"] != nil }
            #expect(live.count >= 3 && objects.dropLast().allSatisfy { $0["frames"] != nil || $0["keeping"] != nil })
            var waveforms: [[Double]] = []
            for object in live {
                let frames = try #require(object["frames"] as? Int)
                #expect(frames > 0)
                let waveform = try #require(object["waveform"] as? [String: Any], "no waveform in \(object.keys)")
                let spectrum = try #require(object["spectrum"] as? [String: Any], "no spectrum in \(object.keys)")
                let seconds = try #require(waveform["seconds"] as? Double)
                // 2,048 samples at 25.6 kHz once that many came.
                #expect(seconds > 0 && seconds <= 0.0801, "\(seconds) s of waveform")
                let wave = try #require((waveform["channels"] as? [[String: Any]])?.first)
                #expect(wave["name"] as? String == "accel_x")
                let points = try #require(wave["points"] as? [Double])
                #expect((1...1000).contains(points.count), "\(points.count) waveform points")
                // The pump's 0.8 + 0.15 amplitude tones, its harmonics and noise: within ±1.2.
                #expect(points.allSatisfy { abs($0) < 1.2 } && points.contains { abs($0) > 0.5 })
                waveforms.append(points)
                let hz = try #require(spectrum["hz"] as? [Double])
                let channel = try #require((spectrum["channels"] as? [[String: Any]])?.first)
                let db = try #require(channel["db"] as? [Double])
                #expect((1...513).contains(hz.count) && db.count == hz.count, "\(hz.count) Hz, \(db.count) dB")
                #expect(zip(hz, hz.dropFirst()).allSatisfy { $0 < $1 } && (hz.last ?? 0) <= 12_800)
                // The pump's strongest tone is 49.5 Hz: the strongest bin is within one bin (25 Hz).
                let peak = try #require(channel["peakHz"] as? Double)
                #expect(abs(peak - 49.5) <= 25, "strongest at \(peak) Hz")
            }
            // The waveform moves from one update to the next.
            #expect(zip(waveforms, waveforms.dropFirst()).contains { $0 != $1 }, "the waveform never changed")

            // Polling gets the values only: the plots are the stream's.
            let ended = try await ann.get(values)
            #expect(ended.text.contains("\"navigate\":") && !ended.text.contains("waveform"), "\(ended.text)")
        }
    }
}
