/// How a record's `time` is derived from its start sample.
public enum RecordClock: Sendable, Equatable {
    /// Files: `start / sampleRate + offset` seconds (offset = first value of a CSV time column).
    case seconds(sampleRate: Double, offset: Double)
    /// Live sources: the wall-clock time of sample 0 (seconds since 1970) plus `start / sampleRate`,
    /// written as RFC 3339 UTC with milliseconds.
    case wallClock(sampleRate: Double, epochOfFirstSample: Double)
}
