import ArgumentParser
import Foundation
import SondeBench
import SondeCore
import SondeDSP
import SondeIO
import SondePipeline
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput: the simulated device, as fast as possible, through the whole pipeline.",
        discussion: """
            The device (default: --rate 51200 --channels 2, a tone with harmonics and noise; or \
            --profile FILE) runs unpaced through the same pipeline as `sonde process` into a CSV \
            exporter writing to /dev/null. Its first second is generated once and replayed, so \
            the figures measure the pipeline, not the signal generator. Prints samples/s, × real time, frames/s, the share of \
            busy time per stage, CPU seconds per kind of thread and the serial share (the CPU no \
            worker spent, over the run's; by Amdahl's law more --jobs gain at most its \
            inverse), latency from a window's last sample in to its record out \
            (p50/p99/p99.9) and peak RSS.

            --fft-only runs the bare FFT loop instead (window + r2c + magnitude, same N, H and \
            jobs); --versus-fft runs both in this process and prints the ratio.

            Examples:
              sonde bench --filter highpass:10:4 --jobs 2
              sonde bench --versus-fft --filter highpass:10:4 --bands 0-1000,1000-5000,5000-20000
              sonde bench --rate 51200 --channels 4 --window 4096 --json
            """
    )

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions
    @OptionGroup(title: "Device") var device: DeviceOptions
    @OptionGroup(title: "Input") var input: InputOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds of signal to push through (at the device rate), at most 1e6.", valueName: "S"))
    var seconds: Double = 600

    @OptionGroup var workers: WorkerOptions

    var jobs: Int { workers.jobs }

    @Flag(help: "Run only the bare FFT loop (window + r2c + magnitude).")
    var fftOnly = false

    @Flag(help: "Run the pipeline and the FFT loop, and print their ratio.")
    var versusFft = false

    @Flag(help: "One JSON object instead of text.")
    var json = false

    func validate() throws {
        guard seconds > 0, OptionRanges.benchSeconds.contains(seconds) else {
            throw ValidationError("--seconds \(seconds): expected more than 0 and at most 1e6")
        }
        guard !(fftOnly && versusFft) else { throw ValidationError("--fft-only and --versus-fft: pick one") }
        guard input.sampleType == nil else {
            throw ValidationError("--sample-type applies to raw input; sonde bench measures a simulated device")
        }
    }

    func run() async throws {
        try await reportingErrors {
            let settings = try pipeline.settings()
            let profile =
                try device.profileText(input: input, defaultRate: 51200, defaultChannels: 2)
                ?? (try BenchDevice.profile(rate: input.rate ?? 51200, channels: input.channels ?? 2).tomlText, "bench")
            let deviceProfile = try DeviceProfile.parse(profile.text, source: profile.source)
            try settings.validate(sampleRate: deviceProfile.sampleRate)
            let frames = OptionRanges.frameCount(seconds: seconds, rate: deviceProfile.sampleRate)
            var report: [(String, BenchValue)] = [
                ("rate_hz", .number(deviceProfile.sampleRate)), ("channels", .integer(deviceProfile.channels.count)),
                ("window", .integer(settings.frameLength)), ("hop", .integer(settings.hop)), ("jobs", .integer(jobs)),
                ("samples", .integer(frames * deviceProfile.channels.count)),
            ]
            if !fftOnly {
                report += try await runPipeline(settings: settings, profile: deviceProfile, frames: frames)
            }
            if fftOnly || versusFft {
                report += try await runFFTLoop(settings: settings, profile: deviceProfile, frames: frames)
            }
            if versusFft, case .number(let full)? = report.first(where: { $0.0 == "samples_per_second" })?.1,
                case .number(let fft)? = report.first(where: { $0.0 == "fft_only_samples_per_second" })?.1
            {
                report.append(("pipeline_share_of_fft_limit", .number(full / fft)))
            }
            report.append(("peak_rss_mib", .number(Self.peakRSSMiB())))
            print(json ? Self.json(report) : Self.text(report))
        }
    }

    private func runPipeline(
        settings: PipelineSettings, profile: DeviceProfile, frames: Int
    ) async throws -> [(String, BenchValue)] {
        let arrivals = ArrivalLog()
        let device = try ReplayedDevice(
            SimulatedDevice(profile: profile, seed: device.seed), frames: Int(profile.sampleRate))
        let source = LimitedSource(
            base: LiveClockSource(base: device, policy: .block, paced: false, arrivals: arrivals), frames: frames)
        let writer = try RecordWriters.make(
            format: .csv,
            layout: RecordLayout(
                valueColumns: try settings.valueColumns(sampleRate: profile.sampleRate), includesFile: false),
            output: try OutputFile(discarding: ())
        )
        let run = GraphRun(settings: settings, options: PipelineGraph.Options(jobs: jobs, encoder: writer.encoder))
        let latencies = TimedEmitter(writer: writer, arrivals: arrivals, frameLength: settings.frameLength)
        let started = MonotonicClock.seconds()
        let summary = try await run.run([PipelineGraph.Input(name: "bench", source: source)]) {
            try latencies.emit($0)
        }
        // A stopped bench measured part of its frames: its figures would mislead.
        if let status = run.exitStatus { throw ExitCode(status) }
        try writer.finish()
        let elapsed = MonotonicClock.seconds() - started
        let samples = Double(summary.samplesPerChannel[0] * profile.channels.count)
        let histogram = latencies.latencies.withLock { $0 }
        let busy = StageTimes.Stage.allCases.map { run.graph.stageTimes.seconds($0) }
        let totalBusy = max(busy.reduce(0, +), 1e-12)
        var values: [(String, BenchValue)] = [
            ("seconds", .number(elapsed)),
            ("samples_per_second", .number(samples / elapsed)),
            ("times_real_time", .number(samples / elapsed / (profile.sampleRate * Double(profile.channels.count)))),
            ("frames_per_second", .number(Double(summary.records) / elapsed)),
        ]
        for (stage, seconds) in zip(StageTimes.Stage.allCases, busy) {
            values.append(("share_\(stage)", .number(seconds / totalBusy)))
        }
        values += CPUReport.values(run.graph)
        for (name, fraction) in [("latency_p50_ms", 0.5), ("latency_p99_ms", 0.99), ("latency_p999_ms", 0.999)] {
            values.append((name, .number(Double(histogram.percentile(fraction) ?? 0) / 1e6)))
        }
        return values
    }

    /// The bare FFT over the same frames, split over `jobs` tasks (`FFTLoop`).
    private func runFFTLoop(
        settings: PipelineSettings, profile: DeviceProfile, frames: Int
    ) async throws -> [(String, BenchValue)] {
        let elapsed = try await FFTLoop.seconds(
            settings: settings, device: SimulatedDevice(profile: profile, seed: device.seed), frames: frames, jobs: jobs
        )
        return [
            ("fft_only_seconds", .number(elapsed)),
            ("fft_only_samples_per_second", .number(Double(frames * profile.channels.count) / elapsed)),
        ]
    }

    static func peakRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // Linux reports KiB
    }

    static func text(_ report: [(String, BenchValue)]) -> String {
        report.map { name, value in "\(name.replacingOccurrences(of: "_", with: " ")): \(value.text)" }.joined(
            separator: "\n")
    }

    static func json(_ report: [(String, BenchValue)]) -> String {
        JSONValue.object(report.map { JSONValue.Member($0.0, $0.1.json) }).text
    }
}
