import ArgumentParser
import SondeCore
import SondeKit

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
        let outcome = try await MeasureRun(duration: duration, comment: comment, jobs: jobs).run(with: services) {
            try pipeline.settings()
        }
        let id = outcome.saved.id
        AccountOutput.line("Saved measurement \(id) (\(outcome.records) records from \(outcome.deviceID))")
        if let failure = outcome.failure {
            throw SondeError(.io, "the capture ended early, and measurement \(id) holds what came before: \(failure)")
        }
        if outcome.terminated { throw ExitCode(143) }
    }
}
