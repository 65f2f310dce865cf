import SondeBench
import SondeCapture
import SondeCore
import SondeDSP
import SondeIO
public import SondePipeline

#if canImport(Glibc)
    import Glibc
#endif

/// `sonde bench`'s runs: the simulated device, replayed from its first second and unpaced,
/// through the whole pipeline into a CSV writer to /dev/null, and the bare FFT loop over
/// the same frames, each giving its figures to a `BenchReport`.
public struct BenchRun {
    public var settings: PipelineSettings
    public var profile: DeviceProfile
    /// The device's noise and faults' seed.
    public var seed: UInt64
    public var jobs: Int
    /// Frames per channel pushed through.
    public var frames: Int

    /// How a bench ended: its report, or the signal that stopped it (its figures, over part
    /// of the frames, would mislead, so there are none).
    public enum Outcome: Sendable {
        case report(BenchReport)
        case interrupted(exitStatus: Int32)
    }

    public init(settings: PipelineSettings, profile: DeviceProfile, seed: UInt64, jobs: Int, seconds: Double) {
        self.settings = settings
        self.profile = profile
        self.seed = seed
        self.jobs = jobs
        frames = LiveSourceChain.frameCount(seconds: seconds, rate: profile.sampleRate)
    }

    /// Runs the pipeline unless `fftOnly`, the FFT loop if `fftOnly` or `versusFFT`.
    /// - Throws: `SondeError` when the settings do not fit the device's rate.
    public func run(fftOnly: Bool, versusFFT: Bool) async throws -> Outcome {
        try settings.validate(sampleRate: profile.sampleRate)
        var report = BenchReport(
            rate: profile.sampleRate, channels: profile.channels.count, window: settings.frameLength,
            hop: settings.hop, jobs: jobs, samples: frames * profile.channels.count)
        if !fftOnly {
            switch try await runPipeline() {
            case .success(let pipeline): report.pipeline = pipeline
            case .failure(let stopped): return .interrupted(exitStatus: stopped.exitStatus)
            }
        }
        if fftOnly || versusFFT {
            let elapsed = try await FFTLoop.seconds(
                settings: settings, device: SimulatedDevice(profile: profile, seed: seed), frames: frames, jobs: jobs)
            report.fft = BenchReport.FFT(
                seconds: elapsed, samplesPerSecond: Double(frames * profile.channels.count) / elapsed)
        }
        report.peakRSSMiB = Self.peakRSSMiB()
        return .report(report)
    }

    /// A signal stopped the pipeline's run.
    private struct Stopped: Error {
        var exitStatus: Int32
    }

    private func runPipeline() async throws -> Result<BenchReport.Pipeline, Stopped> {
        let arrivals = ArrivalLog()
        let device = try ReplayedDevice(SimulatedDevice(profile: profile, seed: seed), frames: Int(profile.sampleRate))
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
        if let status = run.exitStatus { return .failure(Stopped(exitStatus: status)) }
        try writer.finish()
        let elapsed = MonotonicClock.seconds() - started
        let samples = Double(summary.samplesPerChannel[0] * profile.channels.count)
        let histogram = latencies.latencies.withLock { $0 }
        let busy = StageTimes.Stage.allCases.map { run.graph.stageTimes.seconds($0) }
        let totalBusy = max(busy.reduce(0, +), 1e-12)
        let milliseconds = { (fraction: Double) in Double(histogram.percentile(fraction) ?? 0) / 1e6 }
        return .success(
            BenchReport.Pipeline(
                seconds: elapsed, samplesPerSecond: samples / elapsed,
                timesRealTime: samples / elapsed / (profile.sampleRate * Double(profile.channels.count)),
                framesPerSecond: Double(summary.records) / elapsed,
                stageShares: zip(StageTimes.Stage.allCases, busy).map { ("\($0)", $1 / totalBusy) },
                cpu: CPUReport.values(run.graph),
                latencyP50: milliseconds(0.5), latencyP99: milliseconds(0.99), latencyP999: milliseconds(0.999)))
    }

    /// The process's peak resident memory, in MiB.
    public static func peakRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024  // Linux reports KiB
    }
}
