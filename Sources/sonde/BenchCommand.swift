import ArgumentParser
import Foundation
import SondeBench
import SondeCore
import SondeKit
import SondePipeline

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
            let bench = BenchRun(
                settings: settings, profile: try DeviceProfile.parse(profile.text, source: profile.source),
                seed: device.seed, jobs: jobs, seconds: seconds)
            switch try await bench.run(fftOnly: fftOnly, versusFFT: versusFft) {
            case .report(let report): print(json ? report.json : report.text)
            case .interrupted(let status): throw ExitCode(status)
            }
        }
    }
}
