import Foundation
import SondeAccounts
import SondeCapture
import SondeCore
import SondePipeline
import SondePlots
import Synchronization

/// The capture service on the lab's shared `Instrument`: starts captures for the New
/// measurement screen, keeps the trends it draws, and turns every capture that ends unsaved
/// into a draft (`CaptureDrafts`). A capture belongs to the server, not to the page (issue
/// 44): a tab that sleeps, loses its network or closes changes nothing; the capture records
/// until Stop, its time limit or its owner's logout, and then waits as a draft, with the
/// device already free for the next user.
final class InstrumentCaptures: CaptureService {
    let instrument: Instrument
    let drafts: CaptureDrafts
    private let options: CaptureOptions
    private let longestSeconds: Double
    /// Captures started here and not yet kept as drafts, by id: the one recording, and one
    /// that ended a moment ago (the device may already serve another user).
    private let watched = Mutex<[String: Watched]>([:])

    /// The trend features drawn when they are among the columns, in this order.
    static let preferredTrends = ["rms", "peak", "kurtosis", "dominant_frequency"]
    /// Seconds between trend points.
    static let trendStep = 0.2

    private struct Watched {
        let capture: LiveCapture
        let trendColumns: [Int]
        var trends: [TrendEnvelope]
        var lastFrames = 0
        /// Why it was asked to end (Stop, logout); nil: it reached its limit or failed.
        var stopReason: String?
        /// Someone is writing its draft now.
        var keeping = false
        /// Index of its first batch not yet in its journal on disk.
        var journaled = 0
        /// Ticks since its journal was last written.
        var ticksSinceJournal = 0
    }

    /// Ticks between writes of a running capture's new records to its journal (1 s): a
    /// server killed mid-capture loses at most this, plus the records still inside the
    /// pipeline (`CaptureDrafts.journal`; docs/app.md says it).
    static let journalTicks = 5

    /// Where `sonde device release` asks; nil: nobody can (the in-process tests).
    private let release: DeviceReleaseRequest?
    /// What the draft of a capture the administrator released says ended it.
    static let releasedReason = "stopped by the administrator"

    init(
        instrument: Instrument, drafts: CaptureDrafts, options: CaptureOptions, longestSeconds: Double,
        release: DeviceReleaseRequest? = nil
    ) {
        self.instrument = instrument
        self.drafts = drafts
        self.options = options
        self.longestSeconds = longestSeconds
        self.release = release
    }

    func pair(profileText: String, profileSource: String, seed: UInt64) async throws -> PairedDevice {
        try await instrument.pair(profileText: profileText, profileSource: profileSource, seed: seed)
    }

    func paired() throws -> PairedDevice? {
        try instrument.paired()
    }

    func status() throws -> InstrumentStatus {
        try instrument.status()
    }

    /// Starts a capture for `account`, or gives back the one it runs already (another tab).
    /// - Throws: `SondeError(.busy)` while another user measures (409) or while `account`
    ///   has `drafts.limit` unsaved measurements; `.invalidArgument` when no device is paired.
    func start(for account: Account) throws -> LiveCapture {
        if let running = capture(for: account) { return running }
        guard drafts.hasRoom(for: account.id) else {
            throw SondeError(
                .busy,
                "You have \(drafts.limit) unsaved measurements: save or discard some on Main before measuring again")
        }
        let capture = try instrument.startCapture(
            for: account, settings: try PipelineSettings(), duration: longestSeconds, options: options)
        let trendColumns = Self.trendColumns(capture.columns)
        watched.withLock {
            $0[capture.id] = Watched(
                capture: capture, trendColumns: trendColumns,
                trends: Array(
                    repeating: TrendEnvelope(capacity: 600), count: trendColumns.count * capture.channelNames.count))
        }
        return capture
    }

    /// The capture `account` records now, if any.
    func capture(for account: Account) -> LiveCapture? {
        guard let running = instrument.currentCapture, running.owner.id == account.id else { return nil }
        return running
    }

    /// Whether capture `id` of `owner` ended and is being kept as a draft right now.
    func isBeingKept(_ id: String, for owner: UserID) -> Bool {
        watched.withLock { $0[id].map { $0.capture.owner.id == owner && !$0.capture.isRunning } ?? false }
    }

    /// Ends `capture` (when it still records) and keeps it as a draft.
    /// - Parameter reason: what the draft says ended it ("stopped", "logout").
    /// - Throws: `SondeError(.io)` when its draft cannot be written; the records stay held
    ///   here and the next tick tries again.
    func stop(_ capture: LiveCapture, reason: String) async throws -> CaptureDraft {
        watched.withLock { state in
            if state[capture.id]?.stopReason == nil { state[capture.id]?.stopReason = reason }
        }
        capture.requestStop()
        return try await keep(capture)
    }

    /// Ends every capture still recording and keeps each as a draft (the server stops).
    func stopAll(reason: String) async {
        let recording = watched.withLock { $0.values.map(\.capture) }
        for capture in recording {
            do {
                _ = try await stop(capture, reason: reason)
            } catch {
                Self.report("sonde serve: cannot keep the measurement of \(capture.owner.email) as a draft: \(error)")
            }
        }
    }

    /// Every `trendStep`: adds the newest values to the trends, and keeps every capture
    /// that ended (its limit, a device failure) as a draft.
    func tick() async {
        if let release, let token = release.take() {
            let answer = await releaseDevice()
            release.answer(token, answer)
        }
        let ended: [LiveCapture] = watched.withLock { state in
            var ended: [LiveCapture] = []
            for (id, current) in state {
                guard current.capture.isRunning else {
                    if !current.keeping { ended.append(current.capture) }
                    continue
                }
                let values = current.capture.latest()
                guard values.frameCount > current.lastFrames else { continue }
                state[id]?.lastFrames = values.frameCount
                let channels = values.channels.count
                for (slot, column) in current.trendColumns.enumerated() {
                    for (channel, entry) in values.channels.enumerated() where entry.values.indices.contains(column) {
                        state[id]?.trends[slot * channels + channel].append(entry.values[column])
                    }
                }
            }
            return ended
        }
        await writeJournals()
        for capture in ended {
            do {
                _ = try await keep(capture)
            } catch {
                // Held in memory; tried again at the next tick. Say it once a second at most.
                Self.report("sonde serve: cannot keep the measurement of \(capture.owner.email) as a draft: \(error)")
            }
        }
    }

    /// Every `journalTicks`: appends each running capture's new records to its journal.
    /// A failed write (a full disk) is said once a second at most and tried again with the
    /// same records; the capture records on, in memory.
    private func writeJournals() async {
        let due: [(LiveCapture, Int)] = watched.withLock { state in
            var due: [(LiveCapture, Int)] = []
            for (id, current) in state where current.capture.isRunning && !current.keeping {
                state[id]?.ticksSinceJournal += 1
                guard current.ticksSinceJournal + 1 >= Self.journalTicks else { continue }
                state[id]?.ticksSinceJournal = 0
                due.append((current.capture, current.journaled))
            }
            return due
        }
        for (capture, start) in due {
            let (batches, next) = capture.batches(from: start)
            do {
                try drafts.journal(
                    id: capture.id, owner: capture.owner.id, capture: capture.described, batches: batches)
                watched.withLock { $0[capture.id]?.journaled = next }
            } catch {
                Self.report(
                    "sonde serve: cannot write the running measurement of \(capture.owner.email) to disk: \(error); it records on in memory and is written again in a second"
                )
            }
        }
    }

    /// `sonde device release`: stops the capture recording now, keeps it as its owner's
    /// draft ("stopped by the administrator", on their Main), and so frees the device.
    /// - Returns: the sentence the command prints.
    func releaseDevice() async -> String {
        guard let running = instrument.currentCapture else {
            return "The device is free: no measurement was recording."
        }
        do {
            let draft = try await stop(running, reason: Self.releasedReason)
            return
                "Stopped the measurement of \(running.owner.email) after \(draft.frames) windows; it waits for them as an unsaved measurement. The device is free."
        } catch {
            return
                "Stopped the measurement of \(running.owner.email); the device is free, but its unsaved measurement is not written yet (\(error)); the server keeps trying."
        }
    }

    /// Writes `capture`'s draft once it ended; a second caller waits for the first's.
    private func keep(_ capture: LiveCapture) async throws -> CaptureDraft {
        let (mine, stopReason) = watched.withLock { state -> (Bool, String?) in
            guard let current = state[capture.id], !current.keeping else { return (false, nil) }
            state[capture.id]?.keeping = true
            return (true, current.stopReason)
        }
        guard mine else { return try await draftWritten(by: capture) }
        let ended = await capture.ended()
        let reason =
            ended.error.map { "the device failed (\(($0 as? SondeError)?.message ?? String(describing: $0)))" }
            ?? stopReason ?? "the \(DisplayFormat.minutes(longestSeconds)) limit"
        do {
            let draft = try drafts.keep(
                id: capture.id, owner: capture.owner.id, capture: ended.capture, batches: ended.batches,
                endedAt: capture.endedAt ?? Date().timeIntervalSince1970, reason: reason)
            watched.withLock { _ = $0.removeValue(forKey: capture.id) }
            return draft
        } catch {
            watched.withLock { $0[capture.id]?.keeping = false }
            throw error
        }
    }

    /// The draft another caller is writing for `capture` (a few milliseconds; 10 s at most).
    private func draftWritten(by capture: LiveCapture) async throws -> CaptureDraft {
        for _ in 0..<500 {
            if let draft = drafts.draft(capture.id, for: capture.owner.id) { return draft }
            if watched.withLock({ $0[capture.id] == nil }) {
                // Kept and already saved or discarded by another tab, or never started here.
                throw SondeError(.notFound, "this measurement was saved or discarded already")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw SondeError(.io, "the measurement is still being kept; try again")
    }

    /// The columns drawn as trends (indices into `columns`), and their trends' SVG.
    func trendColumns(of capture: LiveCapture) -> [Int] { Self.trendColumns(capture.columns) }

    func trendSVG(of capture: LiveCapture, slot: Int, channel: Int) -> String? {
        let envelope: TrendEnvelope? = watched.withLock { state in
            guard let state = state[capture.id], state.trendColumns.indices.contains(slot),
                capture.channelNames.indices.contains(channel)
            else { return nil }
            return state.trends[slot * capture.channelNames.count + channel]
        }
        guard let envelope else { return nil }
        let column = Self.trendColumns(capture.columns)[slot]
        return TrendPlot(
            title: "\(capture.columns[column]), \(capture.channelNames[channel])", envelope: envelope,
            secondsPerFrame: Self.trendStep, width: 380, height: 170
        ).svg()
    }

    private static func trendColumns(_ columns: [String]) -> [Int] {
        let preferred = preferredTrends.compactMap { columns.firstIndex(of: $0) }
        return preferred.isEmpty ? Array(columns.indices.prefix(1)) : preferred
    }

    private static let lastReport = Mutex<Double>(0)

    private static func report(_ line: String) {
        let now = Date().timeIntervalSince1970
        guard
            lastReport.withLock({ last in
                guard now - last >= 1 else { return false }
                last = now
                return true
            })
        else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
