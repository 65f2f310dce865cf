import SondeCore

/// The documented range of every numeric option that is not a pipeline setting, checked
/// in `validate()` before any input is opened. Each bound keeps the work it sizes finite
/// and allocatable: `--jobs` starts that many threads, `--ring-capacity` allocates that
/// many Doubles per input, and durations become frame counts. Each `problem` is the text
/// of the usage error a command throws, nil when the value is in range.
public enum OptionRanges {
    /// Feature workers and inputs worked on at once: one thread each.
    public static let jobs = 1...256
    /// Samples in each input's ring (rounded up to a power of two): 16 bytes to 512 MiB.
    public static let ringCapacity = 2...(1 << 26)
    /// Below this, `--ring-capacity` is allowed but noted: the reader and the workers then
    /// hand over a few samples at a time (2 samples ran 70x slower than the default).
    public static let fastRingCapacity = 4096
    /// Channels of a raw input; libsndfile's own limit (`SF_MAX_CHANNELS`) too.
    public static let channels = 1...1024
    /// `--frames` per channel: about 35 years at 1 kHz with a hop of 1.
    public static let frames = 1...1_000_000_000_000
    /// `--duration` in seconds: up to about 31 years.
    public static let durationSeconds = 0.0...1e9
    /// `sonde bench --seconds`: up to 11.6 days of signal.
    public static let benchSeconds = 0.0...1e6

    public static func problem(jobs: Int) -> String? {
        Self.jobs.contains(jobs) ? nil : "--jobs \(jobs): expected a count from 1 to \(Self.jobs.upperBound)"
    }

    public static func problem(ringCapacity: Int) -> String? {
        Self.ringCapacity.contains(ringCapacity)
            ? nil
            : "--ring-capacity \(ringCapacity): expected 2 to \(Self.ringCapacity.upperBound) samples (a power of two up to 2^26)"
    }

    public static func problem(rate: Double?) -> String? {
        guard let rate, !SampleLimits.rates.contains(rate) else { return nil }
        return "--rate \(rate.compactDescription): expected a sample rate from \(SampleLimits.ratesText)"
    }

    public static func problem(channels: Int?) -> String? {
        guard let channels, !Self.channels.contains(channels) else { return nil }
        return "--channels \(channels): expected a count from 1 to \(Self.channels.upperBound)"
    }

    public static func problem(frames: Int?) -> String? {
        guard let frames, !Self.frames.contains(frames) else { return nil }
        return "--frames \(frames): expected a count from 1 to 1000000000000"
    }

    /// Seconds of `text` (`10s`, `500ms`, `2m`, `1h` or a bare number), within `durationSeconds`.
    public static func problem(duration text: String?) -> String? {
        guard let text else { return nil }
        if let seconds = DurationText.seconds(text), durationSeconds.contains(seconds) { return nil }
        return "--duration \(text): expected a length like 10s, 500ms, 2m or 1.5, above 0 and at most 1e9 s"
    }
}
