public import SondeCore
public import SondePipeline

/// The one chain a live source runs through, for `sonde stream`, `sonde measure` and the
/// app's captures: the device (or a recording) under a clock that paces it and drops or
/// blocks on overrun, a frame limit, and a raw copy of what was measured. Built once here,
/// so the two front doors cannot pace or stop a device differently.
public struct LiveSourceChain {
    /// The outermost source: what the graph reads.
    public let source: any SampleSource
    /// The clock, when there is one (counts what it dropped).
    public let clock: LiveClockSource?
    /// A real instrument's own losses (ALSA overruns), when it paces itself.
    public let instrumentLosses: (@Sendable () -> Int)?

    /// How a clock goes on top of the base source.
    public struct Clock: Sendable {
        public var policy: LiveClockSource.OverrunPolicy
        /// Whether reads wait for the sample clock; unpaced, the clock only notes arrivals.
        public var paced: Bool
        /// When each read returned, for latencies (`--stats`, the live page).
        public var arrivals: ArrivalLog?

        public init(policy: LiveClockSource.OverrunPolicy, paced: Bool, arrivals: ArrivalLog? = nil) {
            self.policy = policy
            self.paced = paced
            self.arrivals = arrivals
        }
    }

    /// - Parameters:
    ///   - base: the device's or the recording's samples.
    ///   - clock: a clock on top, or none (a real instrument paces itself).
    ///   - limit: frames at most, or no limit.
    ///   - recording: a raw file (`.f32`/`.f64`) that gets every sample measured.
    ///   - instrumentLosses: a real instrument's own count of lost frames.
    /// - Throws: `SondeError` when the recording cannot be created.
    public init(
        base: any SampleSource, clock: Clock?, limit: Int? = nil, recording: String? = nil,
        instrumentLosses: (@Sendable () -> Int)? = nil
    ) throws {
        var source = base
        var live: LiveClockSource?
        if let clock {
            let paced = LiveClockSource(
                base: source, policy: clock.policy, paced: clock.paced, arrivals: clock.arrivals)
            live = paced
            source = paced
        }
        if let limit { source = LimitedSource(base: source, frames: limit) }
        if let recording {
            let type =
                SampleFormat.allCases.first {
                    recording.lowercased().hasSuffix("." + $0.rawValue)
                        || recording.lowercased().hasSuffix("." + $0.rawValue.dropLast(2))
                } ?? .f32le
            source = try RecordingSource(base: source, path: recording, sampleFormat: type)
        }
        self.source = source
        self.clock = live
        self.instrumentLosses = instrumentLosses
    }

    /// Frames lost so far: the instrument's own count, else the clock's drops.
    public func dropped() -> Int { instrumentLosses?() ?? clock?.droppedFrames ?? 0 }

    /// Frames in `seconds` of signal at `rate`, clamped to `Int.max / 4` so that a long
    /// duration at a high rate cannot overflow (`--duration 1e9` at 1e12 Hz is 1e21 frames).
    public static func frameCount(seconds: Double, rate: Double) -> Int {
        let frames = (seconds * rate).rounded()
        let largest = Int.max / 4
        guard frames < Double(largest) else { return largest }
        return Swift.max(Int(frames), 0)
    }
}
