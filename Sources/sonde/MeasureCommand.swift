import ArgumentParser
import Foundation
import SondeCapture
import SondeCore
import SondeKit

#if canImport(Glibc)
    import Glibc
#endif

/// The app's "new measurement" screen on the terminal: SondeCapture's `LiveCapture`, which
/// the web's screen runs too, with Ctrl-C and a status line wired around it.
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

    @OptionGroup(title: "Store") var store: StoreOptions

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
        try refuse(OptionRanges.problem(duration: duration))
    }

    func run(with services: LocalServices) async throws {
        let owner = try await services.session.requireAccount()
        let instrument = services.instrument
        guard try instrument.paired() != nil else {
            throw SondeError(.invalidArgument, "Device not connected — run sonde device pair")
        }
        let capture = try instrument.startCapture(
            for: owner, settings: try pipeline.settings(), duration: StreamCommand.seconds(duration) ?? 10,
            options: CaptureOptions(
                jobs: jobs, version: ExportDefaults.version, extraSettings: [.init("duration", .string(duration))]))
        // Ctrl-C ends the capture gracefully: every window already complete is saved.
        let interrupts = Interrupts { _ in capture.requestStop() }
        let display = StatusLine(enabled: true, interval: .milliseconds(500)) {
            capture.latest().statusLine
        }
        // However it ended: a device that failed mid-capture (unplugged, a command that
        // died) still leaves the windows before the failure, saved before the error is told.
        let ended = await capture.ended()
        display?.finish()
        let records = ended.batches.reduce(0) { $0 + $1.recordCount }
        if let failure = ended.error, records == 0 { throw failure }
        let saved = try await capture.save(comment: comment, with: services.measurements)
        AccountOutput.line("Saved measurement \(saved.id) (\(records) records from \(capture.device.id))")
        if let failure = ended.error {
            throw SondeError(
                .io, "the capture ended early, and measurement \(saved.id) holds what came before: \(failure)")
        }
        if interrupts.signal == SIGTERM { throw ExitCode(143) }
    }
}
