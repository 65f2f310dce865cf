import SondeCore

/// What `sonde bench` measured, as values: the run's shape, the pipeline's figures, the
/// bare FFT loop's, and the peak memory. The report's lines (text and JSON) are made from
/// `entries`, in one order; the ratio of pipeline to FFT is computed from the two figures,
/// not looked up by a column's name.
public struct BenchReport: Sendable {
    public var rate: Double
    public var channels: Int
    public var window: Int
    public var hop: Int
    public var jobs: Int
    /// Samples pushed through (all channels).
    public var samples: Int
    /// The whole pipeline's figures; nil with `--fft-only`.
    public var pipeline: Pipeline?
    /// The bare FFT loop's figures; nil unless `--fft-only` or `--versus-fft`.
    public var fft: FFT?
    public var peakRSSMiB: Double = 0

    /// The pipeline's run.
    public struct Pipeline: Sendable {
        public var seconds: Double
        public var samplesPerSecond: Double
        public var timesRealTime: Double
        public var framesPerSecond: Double
        /// Each stage's share of the busy time, in `StageTimes.Stage` order.
        public var stageShares: [(stage: String, share: Double)]
        /// CPU by kind of thread and the serial share (`CPUReport.values`).
        public var cpu: [(String, BenchValue)]
        /// Milliseconds from a window's last sample in to its record out.
        public var latencyP50: Double
        public var latencyP99: Double
        public var latencyP999: Double

        public init(
            seconds: Double, samplesPerSecond: Double, timesRealTime: Double, framesPerSecond: Double,
            stageShares: [(stage: String, share: Double)], cpu: [(String, BenchValue)], latencyP50: Double,
            latencyP99: Double, latencyP999: Double
        ) {
            self.seconds = seconds
            self.samplesPerSecond = samplesPerSecond
            self.timesRealTime = timesRealTime
            self.framesPerSecond = framesPerSecond
            self.stageShares = stageShares
            self.cpu = cpu
            self.latencyP50 = latencyP50
            self.latencyP99 = latencyP99
            self.latencyP999 = latencyP999
        }
    }

    /// The bare FFT loop's run.
    public struct FFT: Sendable {
        public var seconds: Double
        public var samplesPerSecond: Double

        public init(seconds: Double, samplesPerSecond: Double) {
            self.seconds = seconds
            self.samplesPerSecond = samplesPerSecond
        }
    }

    public init(rate: Double, channels: Int, window: Int, hop: Int, jobs: Int, samples: Int) {
        self.rate = rate
        self.channels = channels
        self.window = window
        self.hop = hop
        self.jobs = jobs
        self.samples = samples
    }

    /// The pipeline's throughput over the FFT loop's, when both ran.
    public var pipelineShareOfFFTLimit: Double? {
        guard let pipeline, let fft else { return nil }
        return pipeline.samplesPerSecond / fft.samplesPerSecond
    }

    /// Every figure by its report name, in the report's order.
    public var entries: [(String, BenchValue)] {
        var report: [(String, BenchValue)] = [
            ("rate_hz", .number(rate)), ("channels", .integer(channels)), ("window", .integer(window)),
            ("hop", .integer(hop)), ("jobs", .integer(jobs)), ("samples", .integer(samples)),
        ]
        if let pipeline {
            report += [
                ("seconds", .number(pipeline.seconds)), ("samples_per_second", .number(pipeline.samplesPerSecond)),
                ("times_real_time", .number(pipeline.timesRealTime)),
                ("frames_per_second", .number(pipeline.framesPerSecond)),
            ]
            report += pipeline.stageShares.map { ("share_\($0.stage)", .number($0.share)) }
            report += pipeline.cpu
            report += [
                ("latency_p50_ms", .number(pipeline.latencyP50)), ("latency_p99_ms", .number(pipeline.latencyP99)),
                ("latency_p999_ms", .number(pipeline.latencyP999)),
            ]
        }
        if let fft {
            report += [
                ("fft_only_seconds", .number(fft.seconds)),
                ("fft_only_samples_per_second", .number(fft.samplesPerSecond)),
            ]
        }
        if let share = pipelineShareOfFFTLimit { report.append(("pipeline_share_of_fft_limit", .number(share))) }
        report.append(("peak_rss_mib", .number(peakRSSMiB)))
        return report
    }

    /// `samples per second: 1.234e+07`, one figure a line.
    public var text: String {
        entries.map { name, value in "\(name.replacingOccurrences(of: "_", with: " ")): \(value.text)" }.joined(
            separator: "\n")
    }

    /// One JSON object, the figures by their names.
    public var json: String {
        JSONValue.object(entries.map { JSONValue.Member($0.0, $0.1.json) }).text
    }
}
