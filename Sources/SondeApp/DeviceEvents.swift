import Hummingbird
import SondeCore
import Synchronization

/// Main's device card as Server-Sent Events (`/device/events`): the card's HTML each time
/// the device's state changes for this user (paired, free, busy with whom, theirs), so a
/// user waiting for the lab's one device sees it free without reloading (issue 44).
///
/// Bounded: at most `limit` streams at once (past that 503, and the page's EventSource
/// retries later), each ending after `lifetime` (the browser reconnects through the session
/// check, so a stream never outlives its session by more than that).
enum DeviceEvents {
    static let limit = 256
    static let lifetime: Duration = .seconds(600)
    /// How often a stream looks at the device; and a comment line every `heartbeat` keeps
    /// proxies from closing an idle stream.
    static let interval: Duration = .milliseconds(250)
    static let heartbeat: Duration = .seconds(15)
    private static let open = Atomic<Int>(0)

    static func stream(for session: WebSession, csrf: String, environment: AppEnvironment) throws -> ScreenOutcome {
        guard open.add(1, ordering: .relaxed).newValue <= limit else {
            open.subtract(1, ordering: .relaxed)
            throw SondeError(.busy, "Too many open pages; the device's state will update on reload")
        }
        let body = ResponseBody { writer in
            defer { open.subtract(1, ordering: .relaxed) }
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: lifetime)
            var lastBeat = clock.now
            var last: String?
            // Tells the browser to reconnect after 1 s when the stream ends.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            while clock.now < end, !Task.isCancelled {
                let device = try MainScreen.device(for: session, environment: environment)
                let rendered = MainView.deviceHTML(device, csrf: csrf)
                let card = rendered.text
                if card != last {
                    last = card
                    lastBeat = clock.now
                    let state = MainView.stateKey(of: rendered)
                    try await writer.write(
                        ByteBuffer(
                            string:
                                "event: device\ndata: {\"state\":\"\(state)\",\"html\":\(Alert.jsonString(card))}\n\n"))
                } else if clock.now - lastBeat >= heartbeat {
                    lastBeat = clock.now
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                }
                try await Task.sleep(for: interval)
            }
            try await writer.finish(nil)
        }
        return .stream(body, contentType: "text/event-stream")
    }
}
