import SondeCapture
import SondeCore
public import SondeMeasurements
public import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

/// `sonde measure`: the app's "new measurement" screen on the terminal. SondeCapture's
/// `LiveCapture` (which the web's screen runs too) from the paired device, the current
/// values redrawn on standard error, Ctrl-C a graceful end; then every complete window is
/// saved, even when the device failed part way (unplugged, a command that died), before
/// the failure is told.
public struct MeasureRun {
    /// How a measurement ended once saved.
    public struct Outcome {
        public let saved: SavedMeasurement
        public let records: Int
        public let deviceID: String
        /// The device's failure that ended the capture early; the windows before it are saved.
        public let failure: (any Error)?
        /// SIGTERM ended it (a service manager's stop): exit status 143 after saving.
        public let terminated: Bool
    }

    /// `--duration`'s text (10s, 500ms, 2m or seconds); saved with the settings as given.
    public var duration: String
    public var comment: String
    public var jobs: Int

    public init(duration: String, comment: String, jobs: Int) {
        (self.duration, self.comment, self.jobs) = (duration, comment, jobs)
    }

    /// Measures and saves.
    /// - Parameter settings: read once the device is known to be paired (which is said first).
    /// - Throws: `SondeError(.invalidArgument)` without a paired device; the session's,
    ///   the device's (when it gave no window at all) or the store's error.
    public func run(with services: LocalServices, settings: () throws -> PipelineSettings) async throws -> Outcome {
        let owner = try await services.session.requireAccount()
        let instrument = services.instrument
        guard try instrument.paired() != nil else {
            throw SondeError(.invalidArgument, "Device not connected — run sonde device pair")
        }
        let capture = try instrument.startCapture(
            for: owner, settings: try settings(), duration: DurationText.seconds(duration) ?? 10,
            options: CaptureOptions(
                jobs: jobs, version: ExportDefaults.version, extraSettings: [.init("duration", .string(duration))]))
        let interrupts = Interrupts { _ in capture.requestStop() }
        let display = StatusLine(enabled: true, interval: .milliseconds(500)) {
            capture.latest().statusLine
        }
        let ended = await capture.ended()
        display?.finish()
        let records = ended.batches.reduce(0) { $0 + $1.recordCount }
        if let failure = ended.error, records == 0 { throw failure }
        let saved = try await capture.save(comment: comment, with: services.measurements)
        return Outcome(
            saved: saved, records: records, deviceID: capture.device.id, failure: ended.error,
            terminated: interrupts.signal == SIGTERM)
    }
}
