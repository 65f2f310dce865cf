public import SondeAccounts
public import SondeCore

/// A saved measurement's number, unique in the database and stable for its lifetime.
public struct MeasurementID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Parses what a person types (`sonde measurements show 12`).
    public init?(_ text: String) {
        guard let value = Int64(text), value > 0 else { return nil }
        self.init(value)
    }

    public static func < (lhs: MeasurementID, rhs: MeasurementID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// Everything about a saved measurement but its per-window series.
public struct SavedMeasurement: Sendable, Equatable {
    public var id: MeasurementID
    public var owner: UserID
    /// When the capture started (or was saved, if it did not say), seconds since 1970.
    public var recordedAt: Double
    public var deviceID: String
    /// The pipeline settings the records were computed with, as the capture described them
    /// (JSON text by convention).
    public var settings: String
    public var comment: String
    public var channelNames: [String]
    /// Value columns (features, then bands), as in `sonde process` output.
    public var columns: [String]
    /// Samples between window starts; nil when no window completed.
    public var hop: Int?
    /// How record times are written; nil when no window completed.
    public var clock: RecordClock?
    public var summary: MeasurementSummary

    public init(
        id: MeasurementID, owner: UserID, recordedAt: Double, deviceID: String, settings: String, comment: String,
        channelNames: [String], columns: [String], hop: Int?, clock: RecordClock?, summary: MeasurementSummary
    ) {
        self.id = id
        self.owner = owner
        self.recordedAt = recordedAt
        self.deviceID = deviceID
        self.settings = settings
        self.comment = comment
        self.channelNames = channelNames
        self.columns = columns
        self.hop = hop
        self.clock = clock
        self.summary = summary
    }

    /// Windows measured (each gives one record per channel).
    public var frameCount: Int { summary.frameCount }
    public var recordCount: Int { summary.frameCount * channelNames.count }
}

/// Per-channel mean of every value column over all windows.
public struct MeasurementSummary: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public var name: String
        /// One per column of `MeasurementSummary.columns`; empty when `frameCount` is 0.
        public var means: [Double]

        public init(name: String, means: [Double]) {
            self.name = name
            self.means = means
        }
    }

    public var columns: [String]
    public var channels: [Channel]
    public var frameCount: Int

    public init(columns: [String], channels: [Channel], frameCount: Int) {
        self.columns = columns
        self.channels = channels
        self.frameCount = frameCount
    }

    /// The mean of `column` on `channel`, if both exist and any window was measured.
    public func mean(_ column: String, channel: String) -> Double? {
        guard let c = columns.firstIndex(of: column), let entry = channels.first(where: { $0.name == channel }),
            c < entry.means.count
        else { return nil }
        return entry.means[c]
    }
}
