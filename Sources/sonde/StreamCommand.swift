import ArgumentParser
import Foundation
import SondeCore
import SondeIO
import SondeKit
import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Measure a live source and write each record to stdout as soon as it is computed.",
        discussion: """
            Sources: the paired device (sonde device pair), a one-off simulated device \
            (--profile FILE, or --tone/--noise/... flags with --rate and --channels), a recording \
            replayed at its sample rate (--input FILE --realtime), or raw samples arriving on \
            standard input (--input - --rate R --channels C --sample-type T).

            Records carry wall-clock time (RFC 3339, UTC, milliseconds). A live device is paced \
            by its sample clock: a 1 kHz device with --window 1024 --hop 512 emits a record per \
            channel every 0.512 s. When stdout cannot keep up, a live device drops its oldest \
            blocks (counted in the summary); --on-overrun block waits instead.

            --serve [ADDR:]PORT also serves a live page (values, trends, spectrum; open \
            http://127.0.0.1:PORT/) and /metrics in the Prometheus text format, on loopback \
            unless an address is given. stdout keeps its records; a slow or stalled browser \
            misses page updates (counted in /metrics) and never holds back the measurement.

            Records are written as they are computed: a bad sample late in the input stops \
            the run with an error after the records before it were written.

            Profile files: `name = ...`, `rate = HZ`, then per channel a `[channel NAME]` \
            section with `tone = FREQ AMPLITUDE [H2 H3 ...]` (repeatable), `noise = RMS`, \
            `offset = V`, `drift = AMPLITUDE PERIOD_S`, `impulses = PER_SECOND AMPLITUDE`.

            Examples:
              sonde stream --profile sample-data/faulty-pump.toml --seed 7 --features rms,kurtosis
              sonde stream --frames 20 --format csv | head -n 5
              sonde stream --profile sample-data/healthy-pump.toml --as-fast-as-possible \\
                  --frames 100 --record raw.f32
              sonde stream --input sample-data/motor.wav --realtime --stats
              sonde stream --profile sample-data/faulty-pump.toml --serve 8080 > records.ndjson
              my-daq | sonde stream --input - --rate 10000 --channels 3 --sample-type i16le
            """
    )

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions
    @OptionGroup(title: "Device") var device: DeviceOptions
    @OptionGroup(title: "Input") var input: InputOptions

    @Option(
        name: .customLong("input"),
        help: ArgumentHelp(
            "Read this recording (with --realtime) or - for live raw samples on stdin.", valueName: "FILE"))
    var inputPath: String?

    @Flag(help: "Replay --input at its sample rate instead of as fast as possible.")
    var realtime = false

    @Flag(help: "Do not pace the device by its sample clock.")
    var asFastAsPossible = false

    @Option(help: "Record format on stdout.")
    var format: StreamFormatOption = .ndjson

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Stop after this much signal: 10s, 500ms, 2m or seconds (at most 1e9 s).", valueName: "D"))
    var duration: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after K frames per channel, 1 to 1e12.", valueName: "K"))
    var frames: Int?

    @Option(
        help:
            "When stdout is slower than the source: drop-oldest (default for a device) or block (default for files and stdin)."
    )
    var onOverrun: LiveClockSource.OverrunPolicy?

    @Option(help: ArgumentHelp("Also write the samples measured to this raw file (.f32 or .f64).", valueName: "FILE"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Serve a live page and /metrics at [ADDR:]PORT (127.0.0.1 unless ADDR is given; port 0 picks one).",
            valueName: "[ADDR:]PORT"))
    var serve: ServeAddress?

    @Flag(help: "Add latency (last sample of a window in → record written) p50/p99 to the summary.")
    var stats = false

    @OptionGroup var workers: WorkerOptions

    var jobs: Int { workers.jobs }

    @Flag(name: .shortAndLong, help: "No summary on standard error.")
    var quiet = false

    func validate() throws {
        try refuse(OptionRanges.problem(frames: frames), OptionRanges.problem(duration: duration))
        if realtime && inputPath == nil { throw ValidationError("--realtime replays a recording: add --input FILE") }
    }

    /// Seconds from `10s`, `500ms`, `2m`, `1h` or a bare number.
    static func seconds(_ text: String) -> Double? {
        DurationText.seconds(text)
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)  // a closed stdout becomes EPIPE, which ends the run quietly
        try await reportingErrors {
            let settings = try pipeline.settings()
            let arrivals = stats || serve != nil ? ArrivalLog() : nil
            var request = StreamSource.Request(inputPath: inputPath, sourceOptions: input.sampleSourceOptions())
            (request.seed, request.realtime, request.asFastAsPossible) = (device.seed, realtime, asFastAsPossible)
            (request.overrun, request.frames, request.recording) = (onOverrun, frames, record)
            (request.seconds, request.arrivals) = (duration.flatMap(DurationText.seconds), arrivals)
            let live = try StreamSource.open(
                request, settings: settings, profile: { try device.profileText(input: input) },
                connection: { try LocalServices.deviceConnection() })
            var run = StreamRun(source: live, settings: settings, format: format.outputFormat, jobs: jobs)
            (run.arrivals, run.serve) = (arrivals, serve.map { ($0.host, $0.port) })
            let summary = try await run.run { url in
                if !quiet { Diagnostics.say("sonde stream: live page at \(url), metrics at \(url)metrics") }
            }
            if !quiet {
                // As `process` does: a partial trailing sample of raw stdin, a short sound file.
                for note in summary.notes { Diagnostics.note(note) }
                Diagnostics.say(summary.line(stats: stats))
            }
            if let status = summary.exitStatus { throw ExitCode(status) }
        }
    }
}

/// The record formats a stream can write (JSON arrays never end, so they are not offered).
enum StreamFormatOption: String, CaseIterable, ExpressibleByArgument {
    case ndjson, csv

    var outputFormat: OutputFormat { self == .csv ? .csv : .ndjson }
}
