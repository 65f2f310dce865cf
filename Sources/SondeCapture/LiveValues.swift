/// The newest values of a running capture, for a live screen's polling (or its events).
public struct LiveValues: Sendable, Equatable {
    /// One channel's values in the newest window, in `columns` order; empty before the
    /// first window completes.
    public struct Channel: Sendable, Equatable {
        public var name: String
        public var values: [Double]

        public init(name: String, values: [Double]) {
            self.name = name
            self.values = values
        }
    }

    /// The value columns, as saved (`rms`, `kurtosis`, `band_power:0-500`...).
    public var columns: [String]
    public var channels: [Channel]
    /// Windows recorded so far.
    public var frameCount: Int
    /// Seconds since the capture started (frozen once it stopped).
    public var elapsedSeconds: Double

    public init(columns: [String], channels: [Channel], frameCount: Int, elapsedSeconds: Double) {
        self.columns = columns
        self.channels = channels
        self.frameCount = frameCount
        self.elapsedSeconds = elapsedSeconds
    }
}
