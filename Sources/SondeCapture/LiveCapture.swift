public import SondeAccounts
public import SondeCore
import SondeInstruments
public import SondeMeasurements
public import SondePipeline
import Synchronization

/// One capture from the paired device, as `sonde measure` and the New measurement screen
/// run it: the device's samples at their own pace through the pipeline graph, every
/// window's record kept for saving, the newest for a live screen.
///
/// It ends after its duration or at `requestStop()`, and the instrument is free from that
/// moment (issue 44: a stopped capture does not hold the lab's device while its owner types
/// a comment); then it is saved (once) or discarded. Signals are the CLI's business: it calls
/// `requestStop()`.
public final class LiveCapture: Sendable {
    /// A random identifier (32 hex digits): the app names the capture's draft by it.
    public let id: String
    /// Whose capture it is: only they may save it.
    public let owner: Account
    public let device: PairedDevice
    /// When it started, seconds since 1970 (the records' wall clock starts here).
    public let startedAt: Double
    /// The value columns of every record.
    public let columns: [String]
    public let channelNames: [String]
    /// Samples per second per channel, as the device delivers them.
    public let sampleRate: Double
    private let settingsText: String
    /// The newest samples and the latest frame's spectrum, for a live screen (`signal()`).
    private let recent: RecentSamples
    private let spectra: LatestSpectra
    private let graph: PipelineGraph
    private let run: Task<PipelineGraph.Summary, any Error>
    private let started: ContinuousClock.Instant
    private let box: Box
    /// Tells the instrument it is free again, and the graph's error (a device failure);
    /// called once when the graph ends.
    private let release: @Sendable ((any Error)?) -> Void

    private enum Disposition {
        case open
        case saving
        case saved(SavedMeasurement)
        case discarded
    }

    private struct State {
        var batches: [RecordBatch] = []
        /// Kept after a save or discard empties `batches`, for a screen's last look.
        var newest: RecordBatch?
        var frames = 0
        var endedAt: ContinuousClock.Instant?
        /// Seconds since 1970 when the graph ended.
        var endedAtWallClock: Double?
        var disposition = Disposition.open
    }

    /// The state, in a reference the graph's task can share before `self` is whole.
    private final class Box: Sendable {
        let state = Mutex(State())
    }

    /// Starts the graph at once. `Instrument.startCapture` is the way in: it checks that
    /// no other capture runs.
    /// - Throws: `SondeError` for a damaged pairing or settings the device's rate cannot use;
    ///   `DeviceOpenFailure` around the error of a real instrument that cannot be opened.
    init(
        id: String, owner: Account, device: PairedDevice, settings: PipelineSettings, duration: Double?,
        options: CaptureOptions, release: @escaping @Sendable ((any Error)?) -> Void
    ) throws {
        let opened: InstrumentSources.Opened
        do {
            opened = try InstrumentSources.open(device)
        } catch {
            guard device.instrument != nil else { throw error }
            throw DeviceOpenFailure(underlying: error)
        }
        let rate = opened.source.format.sampleRate
        try settings.validate(sampleRate: rate)
        let columns = try settings.valueColumns(sampleRate: rate)
        // The simulated device is paced to its clock (and drops as `options.overrun` says
        // when the graph falls behind); a real instrument paces itself and counts its own losses.
        let chain = try LiveSourceChain(
            base: opened.source,
            clock: opened.needsPacing ? .init(policy: options.overrun, paced: options.paced) : nil,
            limit: duration.map { LiveSourceChain.frameCount(seconds: $0, rate: rate) }
        ).source
        // The graph reads through the sample tap: what it measures is what the screen draws.
        let recent = RecentSamples(
            channelCount: opened.source.format.channelCount, capacity: LiveCapture.recentFrames)
        // A device's failure ends the stream there and is thrown once the graph has measured
        // every frame read before it.
        let deviceFailure = DeferredFailureSource.Failure()
        let source = SampleTapSource(
            base: DeferredFailureSource(base: chain, keepingFailureIn: deviceFailure), into: recent)
        let spectra = LatestSpectra()
        let startedAt = WallClock.now()
        self.id = id
        self.owner = owner
        self.device = device
        self.startedAt = startedAt
        self.columns = columns
        self.channelNames = opened.source.format.channelNames
        self.sampleRate = rate
        self.recent = recent
        self.spectra = spectra
        self.settingsText = settings.json(rate: rate, version: options.version, extra: options.extraSettings).text
        self.release = release
        var graphOptions = PipelineGraph.Options.live(jobs: options.jobs, sampleRate: rate)
        graphOptions.spectrumTap = spectra
        let graph = PipelineGraph(settings: settings, options: graphOptions)
        self.graph = graph
        let box = Box()
        self.box = box
        started = ContinuousClock.now
        let input = PipelineGraph.Input(
            name: device.id, source: source, clock: .wallClock(sampleRate: rate, epochOfFirstSample: startedAt))
        run = Task {
            var failure: (any Error)?
            defer {
                box.state.withLock {
                    $0.endedAt = ContinuousClock.now
                    $0.endedAtWallClock = WallClock.now()
                }
                release(failure)
            }
            do {
                let summary = try await graph.run(inputs: [input]) { batch in
                    box.state.withLock { state in
                        state.batches.append(batch)
                        if batch.frameCount > 0 { state.newest = batch }
                        state.frames += batch.frameCount
                    }
                }
                if let deferred = deviceFailure.value { throw deferred }
                return summary
            } catch {
                failure = error
                throw error
            }
        }
    }

    /// The newest window's values per channel, how many windows so far, and for how long.
    public func latest() -> LiveValues {
        let (last, frames, endedAt) = box.state.withLock { ($0.newest, $0.frames, $0.endedAt) }
        let elapsed = (endedAt ?? ContinuousClock.now) - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let channels = channelNames.enumerated().map { channel, name in
            guard let last, last.frameCount > 0 else { return LiveValues.Channel(name: name, values: []) }
            let base = ((last.frameCount - 1) * last.channelNames.count + channel) * last.columnCount
            return LiveValues.Channel(name: name, values: Array(last.values[base..<(base + last.columnCount)]))
        }
        return LiveValues(columns: columns, channels: channels, frameCount: frames, elapsedSeconds: seconds)
    }

    /// Frames of the newest samples kept for `signal()`: 2,048 is 80 ms at the simulated
    /// pump's 25.6 kHz, four turns of its 49.5 Hz tone.
    public static let recentFrames = 2048

    /// The newest samples and the latest frame's spectrum of each channel, thinned for a
    /// page (`LiveSignal`); empty waveforms and spectra before the first samples and frame.
    public func signal(maxPoints: Int = LiveSignal.maxPoints, maxBins: Int = LiveSignal.maxBins) -> LiveSignal {
        LiveSignal(
            names: channelNames, sampleRate: sampleRate, samples: recent.snapshot(), spectra: spectra.snapshot(),
            maxPoints: maxPoints, maxBins: maxBins)
    }

    /// The batches recorded from index `start` on (0: all so far) and the index to ask
    /// from next time: how the app writes a running capture to disk as it goes.
    public func batches(from start: Int) -> (batches: [RecordBatch], next: Int) {
        box.state.withLock { state in
            let from = Swift.min(Swift.max(start, 0), state.batches.count)
            return (Array(state.batches[from...]), state.batches.count)
        }
    }

    /// What a save of this capture stores, but the comment and the records.
    public var described: MeasurementCapture {
        MeasurementCapture(
            deviceID: device.id, settings: settingsText, comment: "", channelNames: channelNames, columns: columns,
            recordedAt: startedAt)
    }

    /// Whether the graph still runs (before its duration ends or a stop).
    public var isRunning: Bool { box.state.withLock { $0.endedAt == nil } }

    /// Asks the graph to end: every window already complete is still recorded. Returns at
    /// once (safe from a signal handler's queue); `finished()` waits for the end.
    public func requestStop() {
        graph.stop()
    }

    /// Waits for the capture to end by itself (its duration) or by `requestStop()`.
    /// - Throws: the pipeline's first error (a device failure).
    public func finished() async throws -> CapturedSeries {
        let summary = try await run.value
        let batches = box.state.withLock { $0.batches }
        return CapturedSeries(
            capture: MeasurementCapture(
                deviceID: device.id, settings: settingsText, comment: "", channelNames: channelNames,
                columns: columns, recordedAt: startedAt),
            batches: batches, summary: summary)
    }

    /// What the capture recorded once it ended, however it ended: a device that failed
    /// mid-capture still leaves the windows before the failure (and the error beside them).
    public func ended() async -> (capture: MeasurementCapture, batches: [RecordBatch], error: (any Error)?) {
        let error: (any Error)?
        do {
            _ = try await run.value
            error = nil
        } catch let failure {
            error = failure
        }
        let batches = box.state.withLock { $0.batches }
        return (
            MeasurementCapture(
                deviceID: device.id, settings: settingsText, comment: "", channelNames: channelNames,
                columns: columns, recordedAt: startedAt),
            batches, error
        )
    }

    /// When the recording ended (seconds since 1970), or nil while it runs.
    public var endedAt: Double? { box.state.withLock { $0.endedAtWallClock } }

    /// Ends the capture and waits for its last records.
    public func stop() async throws -> CapturedSeries {
        requestStop()
        return try await finished()
    }

    /// Stops the capture (if it still runs), saves it for its owner with `comment` (after a
    /// device failure, the windows recorded before it), and frees the instrument. Saving again answers the same measurement (two tabs, one click each).
    /// - Throws: `SondeError(.busy)` while another save of it is under way, `.notFound` after
    ///   `discard()`; the service's errors (the capture stays open: save again, or discard).
    public func save(comment: String, with service: any MeasurementService) async throws -> SavedMeasurement {
        let previous = box.state.withLock { state -> Disposition in
            let previous = state.disposition
            if case .open = previous { state.disposition = .saving }
            return previous
        }
        switch previous {
        case .open: break
        case .saving: throw SondeError(.busy, "this capture is being saved")
        case .saved(let measurement): return measurement
        case .discarded: throw SondeError(.notFound, "this capture was discarded")
        }
        do {
            // A device that failed mid-capture (unplugged) leaves the windows before the
            // failure: those are saved; the caller has the error from `ended()`. Only a
            // capture that recorded nothing fails with it.
            requestStop()
            var (capture, batches, failure) = await ended()
            if let failure, !batches.contains(where: { $0.recordCount > 0 }) { throw failure }
            capture.comment = comment
            let saved = try await service.save(capture, records: batches, for: owner)
            box.state.withLock {
                $0.disposition = .saved(saved)
                $0.batches = []
            }
            return saved
        } catch {
            box.state.withLock { $0.disposition = .open }
            throw error
        }
    }

    /// Stops the capture and forgets its records; nothing is saved. A saved capture stays saved.
    public func discard() async {
        requestStop()
        _ = try? await run.value
        box.state.withLock { state in
            guard case .open = state.disposition else { return }
            state.disposition = .discarded
            state.batches = []
        }
    }
}
