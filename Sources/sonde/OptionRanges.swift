import ArgumentParser
import SondeCore

/// The documented range of every numeric option that is not a pipeline setting, checked
/// in `validate()` before any input is opened. Each bound keeps the work it sizes finite
/// and allocatable: `--jobs` starts that many threads, `--ring-capacity` allocates that
/// many Doubles per input, and durations become frame counts.
enum OptionRanges {
    /// Feature workers and inputs worked on at once: one thread each.
    static let jobs = 1...256
    /// Samples in each input's ring (rounded up to a power of two): 16 bytes to 512 MiB.
    static let ringCapacity = 2...(1 << 26)
    /// Below this, `--ring-capacity` is allowed but noted: the reader and the workers then
    /// hand over a few samples at a time (2 samples ran 70x slower than the default).
    static let fastRingCapacity = 4096
    /// Channels of a raw input; libsndfile's own limit (`SF_MAX_CHANNELS`) too.
    static let channels = 1...1024
    /// `--frames` per channel: about 35 years at 1 kHz with a hop of 1.
    static let frames = 1...1_000_000_000_000
    /// `--duration` in seconds: up to about 31 years.
    static let durationSeconds = 0.0...1e9
    /// `sonde bench --seconds`: up to 11.6 days of signal.
    static let benchSeconds = 0.0...1e6

    static func check(jobs: Int) throws {
        guard Self.jobs.contains(jobs) else {
            throw ValidationError("--jobs \(jobs): expected a count from 1 to \(Self.jobs.upperBound)")
        }
    }

    static func check(ringCapacity: Int) throws {
        guard Self.ringCapacity.contains(ringCapacity) else {
            throw ValidationError(
                "--ring-capacity \(ringCapacity): expected 2 to \(Self.ringCapacity.upperBound) samples (a power of two up to 2^26)"
            )
        }
    }

    static func check(rate: Double?) throws {
        guard let rate else { return }
        guard SampleLimits.rates.contains(rate) else {
            throw ValidationError(
                "--rate \(rate.compactDescription): expected a sample rate from \(SampleLimits.ratesText)")
        }
    }

    static func check(channels: Int?) throws {
        guard let channels else { return }
        guard Self.channels.contains(channels) else {
            throw ValidationError("--channels \(channels): expected a count from 1 to \(Self.channels.upperBound)")
        }
    }

    static func check(frames: Int?) throws {
        guard let frames else { return }
        guard Self.frames.contains(frames) else {
            throw ValidationError("--frames \(frames): expected a count from 1 to 1000000000000")
        }
    }

    /// Seconds of `text` (`10s`, `500ms`, `2m`, `1h` or a bare number), within `durationSeconds`.
    static func check(duration text: String?) throws {
        guard let text else { return }
        guard let seconds = StreamCommand.seconds(text), durationSeconds.contains(seconds) else {
            throw ValidationError(
                "--duration \(text): expected a length like 10s, 500ms, 2m or 1.5, above 0 and at most 1e9 s")
        }
    }

    /// Frames in `seconds` of signal at `rate`, clamped to `Int.max / 4` so that a long
    /// duration at a high rate cannot overflow (`--duration 1e9` at 1e12 Hz is 1e21 frames).
    static func frameCount(seconds: Double, rate: Double) -> Int {
        let frames = (seconds * rate).rounded()
        let largest = Int.max / 4
        guard frames < Double(largest) else { return largest }
        return Swift.max(Int(frames), 0)
    }
}
