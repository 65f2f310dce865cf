import Hummingbird
import SondeAccounts
import SondeCore
import Synchronization

/// The New measurement screen's stream (`/measurements/new/events?capture=ID`): five times a
/// second an `update` event with the capture's values, its newest waveform and its latest
/// spectrum (`NewMeasurementScreen.update`), the same JSON the page's polling fallback gets;
/// once the capture ended, one last event that says where the page goes, and the end.
///
/// Bounded as Main's device stream is: at most `limit` streams at once (past that 503, and
/// the page falls back to polling), each ending after `lifetime` (the browser reconnects
/// through the session check). An event is 10-20 KiB: 1,000 waveform points and 512
/// spectrum values per channel at most (`LiveSignal`).
enum CaptureEvents {
    static let limit = 256
    static let lifetime: Duration = .seconds(600)
    /// Five updates a second: the values, waveform and spectrum look live, and a phone on a
    /// slow link gets under 100 KiB/s.
    static let interval: Duration = .milliseconds(200)
    private static let open = Atomic<Int>(0)
    /// `update` events written by every stream since the process started: a test paces its
    /// Stop by the events sent, not by a wall clock a loaded machine stretches.
    static let updatesWritten = Atomic<Int>(0)

    static func stream(capture id: String, for account: Account, captures: any CaptureService) throws -> ScreenOutcome {
        guard open.add(1, ordering: .relaxed).newValue <= limit else {
            open.subtract(1, ordering: .relaxed)
            throw SondeError(.busy, "Too many open pages; the values update by polling")
        }
        let body = ResponseBody { writer in
            defer { open.subtract(1, ordering: .relaxed) }
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: lifetime)
            // Tells the browser to reconnect after 1 s when the stream ends early.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            while clock.now < end, !Task.isCancelled {
                let update = NewMeasurementScreen.update(of: id, for: account, in: captures, signal: true)
                try await writer.write(ByteBuffer(string: "event: update\ndata: \(update.json)\n\n"))
                updatesWritten.add(1, ordering: .relaxed)
                if update.ends { break }
                try await Task.sleep(for: interval)
            }
            try await writer.finish(nil)
        }
        return .stream(body, contentType: "text/event-stream")
    }
}
