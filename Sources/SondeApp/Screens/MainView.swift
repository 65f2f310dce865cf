import SondeCapture
import SondeMeasurements

/// The Main screen's view model: the device's state is the one enum its template follows.
struct MainView: Sendable {
    enum Device: Sendable, Equatable {
        case notConnected
        case connected(deviceID: String)
        /// Paired, but its last capture failed at `at` (seconds since 1970) with `message`
        /// (unplugged, its command exited); a new measurement may still be started.
        case disconnected(deviceID: String, message: String, at: Double)
        /// Another user is measuring.
        case busy(deviceID: String, user: String, since: Double)
        /// This user is measuring (in another tab, say).
        case measuring(deviceID: String)
    }

    /// The address as the user typed it at login (`Account.greetingEmail`).
    var greeting: String
    /// The account's address, in Settings.
    var email: String
    var device: Device
    /// The user's unsaved measurements, newest first.
    var drafts: [CaptureDraft]
    /// One page of the user's list, newest first.
    var measurements: [MeasurementListing]
    /// Which page (from 1) of how many measurements in all.
    var page: Int
    var total: Int
    var notice: Notice?
    var csrf: String

    var html: HTML {
        let card = Self.deviceHTML(device, csrf: csrf)
        return PageLayout.page(
            title: "Main",
            topBar: """
                <button type="button" class="icon" aria-label="Settings" aria-haspopup="dialog" data-opens="settings">\
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M19.4 13a7.6 7.6 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.4 7.4 0 0 0-1.7-1L15 3h-4l-.4 2.9a7.4 7.4 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.6 7.6 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.4 7.4 0 0 0 1.7 1L11 21h4l.4-2.9a7.4 7.4 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5A3.5 3.5 0 1 1 13 8.5a3.5 3.5 0 0 1 0 7z"/></svg>\
                </button>
                """,
            content: """
                <h1>Welcome, \(greeting)!</h1>
                \(PageLayout.notice(notice))
                <section class="card" aria-labelledby="device-title">
                <h2 id="device-title">Device</h2>
                <div id="device-card" data-events="\(AppRoute.deviceEvents.path)" \
                data-state="\(Self.stateKey(of: card))" aria-live="polite">\
                \(card)</div>
                </section>
                \(draftsHTML)
                <section aria-labelledby="list-title">
                <h2 id="list-title">Your measurements</h2>
                \(listHTML)
                </section>
                """,
            afterMain: settingsDialog)
    }

    /// A key of the card's content, so the page replaces the card only when it changes
    /// (a replaced card's buttons are new elements under the user's pointer).
    static func stateKey(of card: HTML) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in card.text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The device card's content, also sent to an open Main when it changes.
    static func deviceHTML(_ device: Device, csrf: String) -> HTML {
        switch device {
        case .notConnected:
            return """
                <div class="status">
                <p class="status-text not-connected" id="device-status">Device not connected</p>
                <form method="post" action="\(AppRoute.pairDevice.path)" data-async>
                \(PageLayout.csrfField(csrf))
                <div class="actions"><button type="submit">Pair with device</button>\(PageLayout.spinner)</div>
                </form>
                </div>
                """
        case .connected(let id):
            return """
                <div class="status">
                <p class="status-text connected" id="device-status">Device connected</p>
                <form method="post" action="\(AppRoute.newMeasurement.path)" data-async>
                \(PageLayout.csrfField(csrf))
                <div class="actions"><button type="submit">Start new measurement</button>\(PageLayout.spinner)</div>
                </form>
                </div>
                <p class="empty">Device \(id)</p>
                """
        case .disconnected(let id, let message, let at):
            return """
                <div class="status">
                <p class="status-text not-connected" id="device-status">Device disconnected</p>
                <form method="post" action="\(AppRoute.newMeasurement.path)" data-async>
                \(PageLayout.csrfField(csrf))
                <div class="actions"><button type="submit">Start new measurement</button>\(PageLayout.spinner)</div>
                </form>
                </div>
                <p class="device-failure" id="device-failure">Disconnected: \(message), at \(DisplayFormat.time(at))</p>
                <p class="empty">Device \(id)</p>
                """
        case .busy(let id, let user, let since):
            return """
                <div class="status">
                <p class="status-text busy" id="device-status">Device busy</p>
                </div>
                <p>\(user) is measuring with \(id) since \(DisplayFormat.time(since)).</p>
                """
        case .measuring(let id):
            return """
                <div class="status">
                <p class="status-text connected" id="device-status">Device connected</p>
                <a class="button" href="\(AppRoute.newMeasurement.path)">Back to your measurement</a>
                </div>
                <p class="empty">Your measurement with \(id) is recording.</p>
                """
        }
    }

    /// "Unsaved measurement from 10:42 ... Save or Discard": never thrown away unseen.
    private var draftsHTML: HTML {
        guard !drafts.isEmpty else { return "" }
        let items = drafts.map { draft -> HTML in
            let started = draft.capture.recordedAt.map { DisplayFormat.time($0) } ?? DisplayFormat.time(draft.endedAt)
            return """
                <li><a href="\(AppRoute.draft(draft.id).path)">\
                <span class="when">Unsaved measurement from \(started)</span>\
                <span class="values">\(draft.frames) windows, ended: \(draft.reason). Save or Discard</span></a></li>
                """
        }
        return """
            <section aria-labelledby="drafts-title">
            <h2 id="drafts-title">Unsaved measurements</h2>
            <ul class="list" id="drafts">\(items)</ul>
            </section>
            """
    }

    /// Measurements a page of the list shows: a lab's 10,000 would be a 3 MB page.
    static let pageSize = 50

    private var listHTML: HTML {
        guard total > 0 else {
            return "<p class=\"empty\" id=\"no-measurements\">No measurements yet.</p>"
        }
        let items = measurements.map { measurement -> HTML in
            let values =
                measurement.frameCount == 0
                ? "no complete window"
                : measurement.channels.map { channel -> String in
                    "\(channel.name): "
                        + channel.values.map {
                            "\($0.column.replacingOccurrences(of: "_", with: " ")) \(DisplayFormat.value($0.mean))"
                        }.joined(separator: ", ")
                }.joined(separator: " · ")
            let comment: HTML? =
                measurement.comment.isEmpty ? nil : "<span class=\"comment\">\(measurement.comment)</span>"
            return """
                <li><a href="\(AppRoute.measurement(measurement.id).path)">\
                <span class="when">\(DisplayFormat.time(measurement.recordedAt)) · measurement \(Int(measurement.id.rawValue))</span>\
                <span class="values">\(values)</span>\(comment)</a></li>
                """
        }
        return "<ul class=\"list\" id=\"measurements\">\(items)</ul>\(pagesHTML)"
    }

    /// "Measurements 51–100 of 10,000" with Newer and Older links, when there is more than a page.
    private var pagesHTML: HTML {
        guard total > Self.pageSize else { return "" }
        let first = (page - 1) * Self.pageSize + 1
        let last = first + measurements.count - 1
        let newer: HTML = page > 1 ? "<a href=\"\(AppRoute.mainPage(page - 1).path)\" rel=\"prev\">Newer</a>" : ""
        let older: HTML =
            last < total ? "<a href=\"\(AppRoute.mainPage(page + 1).path)\" rel=\"next\">Older</a>" : ""
        return """
            <nav class="pages" aria-label="Pages of your measurements">\(newer)\
            <span class="count">Measurements \(first)–\(last) of \(total)</span>\(older)</nav>
            """
    }

    private var settingsDialog: HTML {
        """
        <dialog id="settings" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <p>Signed in as <span class="email">\(email)</span></p>
        <div class="actions">
        <form method="get" action="\(AppRoute.exportAll.path)"><button type="submit">Export</button></form>
        <form method="post" action="\(AppRoute.logout.path)">\(PageLayout.csrfField(csrf))<button type="submit" class="secondary">Logout</button></form>
        <button type="button" class="secondary" data-closes>Close</button>
        </div>
        </dialog>
        """
    }
}
