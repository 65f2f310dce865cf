public import SondeCore
public import SondePipeline

/// How a capture runs and what its saved settings say, beyond the pipeline settings.
public struct CaptureOptions: Sendable {
    /// Pipeline worker threads.
    public var jobs: Int
    /// Written into the saved settings as `sonde.version`'s text.
    public var version: String
    /// What the front end records beside the settings (the CLI: its `--duration` as typed).
    public var extraSettings: [JSONValue.Member]
    /// When the pipeline falls behind the device: drop (a live device's buffer is bounded,
    /// the CLI's choice) or wait (nothing lost: tests that compare records exactly).
    public var overrun: LiveClockSource.OverrunPolicy
    /// False delivers the device's samples as fast as the pipeline takes them (tests).
    public var paced: Bool

    public init(
        jobs: Int, version: String, extraSettings: [JSONValue.Member] = [],
        overrun: LiveClockSource.OverrunPolicy = .dropOldest, paced: Bool = true
    ) {
        self.jobs = jobs
        self.version = version
        self.extraSettings = extraSettings
        self.overrun = overrun
        self.paced = paced
    }
}
