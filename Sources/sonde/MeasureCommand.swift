import ArgumentParser
import Foundation
import SondeAccounts
import SondeCore
import SondeDSP
import SondeMeasurements
import SondePipeline
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The app's "new measurement" screen: live values from the paired device, then saved with
/// a comment under the logged-in user.
struct MeasureCommand: ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Take a measurement from the paired device and save it.",
        discussion: """
            Needs a logged-in user (sonde login) and a paired device (sonde device pair). \
            While it runs, the current values are redrawn on stderr about twice a second (on a \
            terminal). It ends after --duration or on Ctrl-C, then saves the pipeline settings, \
            the per-channel summary (mean of each feature), every window's record and the comment.

            Examples:
              sonde measure --duration 10s --comment "pump 3 after bearing change"
              sonde measure --duration 2m --features rms,kurtosis,dominant_frequency --filter highpass:10
              sonde measurements list
            """
    )

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How long to measure: 10s, 500ms, 2m or seconds (at most 1e9 s).", valueName: "D"))
    var duration: String = "10s"

    @Option(help: "A note saved with the measurement.")
    var comment: String = ""

    @OptionGroup var workers: WorkerOptions

    var jobs: Int { workers.jobs }

    func validate() throws {
        try OptionRanges.check(duration: duration)
    }

    func run(with services: Services) async throws {
        let owner = try await services.session.requireAccount()
        guard let paired = try DeviceCommand.connection().current() else {
            throw SondeError(.invalidArgument, "Device not connected — run sonde device pair")
        }
        let settings = try pipeline.settings()
        let device = try paired.makeDevice()
        let rate = device.format.sampleRate
        try settings.validate(sampleRate: rate)
        let columns = try settings.valueColumns(sampleRate: rate)
        let seconds = StreamCommand.seconds(duration) ?? 10
        let source = LimitedSource(
            base: LiveClockSource(base: device, policy: .dropOldest),
            frames: OptionRanges.frameCount(seconds: seconds, rate: rate)
        )
        let started = Date().timeIntervalSince1970
        let run = GraphRun(settings: settings, options: .live(jobs: jobs, sampleRate: rate))
        let collected = CapturedRecords(columns: columns)
        let display = StatusLine(enabled: true, interval: .milliseconds(500)) { collected.currentValuesLine() }
        _ = try await run.run(
            [
                PipelineGraph.Input(
                    name: paired.id, source: source, clock: .wallClock(sampleRate: rate, epochOfFirstSample: started))
            ]
        ) { collected.append($0) }
        display?.finish()
        let capture = MeasurementCapture(
            deviceID: paired.id, settings: settingsJSON(settings, rate: rate), comment: comment,
            channelNames: device.format.channelNames, columns: columns, recordedAt: started
        )
        let saved = try await services.measurements.save(capture, records: collected.batches, for: owner)
        let records = collected.batches.reduce(0) { $0 + $1.recordCount }
        AccountOutput.line("Saved measurement \(saved.id) (\(records) records from \(paired.id))")
        if run.signal == SIGTERM { throw ExitCode(143) }
    }

    /// The settings as JSON text, as `MeasurementCapture` expects: `PipelineSettings.json`
    /// with the rate and the capture's duration.
    private func settingsJSON(_ settings: PipelineSettings, rate: Double) -> String {
        settings.json(rate: rate, version: ParquetOptions.version, extra: [.init("duration", .string(duration))]).text
    }
}

/// Every batch of a capture, kept for saving; and the latest values for the display.
private final class CapturedRecords: Sendable {
    private let state = Mutex<[RecordBatch]>([])
    private let columns: [String]

    init(columns: [String]) {
        self.columns = columns
    }

    func append(_ batch: RecordBatch) {
        state.withLock { $0.append(batch) }
    }

    var batches: [RecordBatch] { state.withLock { $0 } }

    /// `accel_x rms 0.61 kurtosis 3.2 | accel_y ...` from the latest frame.
    func currentValuesLine() -> String {
        guard let batch = state.withLock({ $0.last }), batch.frameCount > 0 else {
            return "waiting for the first window…"
        }
        let frame = batch.frameCount - 1
        return batch.channelNames.enumerated().map { channel, name in
            let base = (frame * batch.channelNames.count + channel) * batch.columnCount
            let values = columns.prefix(4).enumerated().map { column, title in
                "\(title) \(String(format: "%.4g", batch.values[base + column]))"
            }
            return ([name] + values).joined(separator: " ")
        }.joined(separator: " | ")
    }
}
