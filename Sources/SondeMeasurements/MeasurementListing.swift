/// One line of a list of measurements (`sonde measurements list`, the app's Main): what the
/// line shows and nothing else, so a store reads it without the settings, the names of
/// every column or most of the summary. 10,000 whole measurements took 0.27 s to list;
/// listings take a fraction of that (docs/performance.md).
public struct MeasurementListing: Sendable, Equatable {
    /// A main value of one channel: the mean of `column` over every window.
    public struct MainValue: Sendable, Equatable {
        public var column: String
        public var mean: Double

        public init(column: String, mean: Double) {
            self.column = column
            self.mean = mean
        }
    }

    /// A channel's main values, in `mainColumns` order.
    public struct Channel: Sendable, Equatable {
        public var name: String
        public var values: [MainValue]

        public init(name: String, values: [MainValue]) {
            self.name = name
            self.values = values
        }
    }

    /// The most listings a store hands over at once (`MeasurementStore.listingBatches`):
    /// small enough that reading and writing a list overlap, large enough to cost nothing.
    public static let batchSize = 500

    /// The columns a list shows when a measurement has them; otherwise its first three.
    public static let mainColumns = ["rms", "peak", "dominant_frequency"]

    public var id: MeasurementID
    public var recordedAt: Double
    public var deviceID: String
    /// Windows measured; 0 leaves `channels` without values.
    public var frameCount: Int
    public var comment: String
    public var channels: [Channel]

    public init(
        id: MeasurementID, recordedAt: Double, deviceID: String, frameCount: Int, comment: String, channels: [Channel]
    ) {
        self.id = id
        self.recordedAt = recordedAt
        self.deviceID = deviceID
        self.frameCount = frameCount
        self.comment = comment
        self.channels = channels
    }

    /// The listing of a whole measurement (what a store reads more cheaply).
    public init(_ measurement: SavedMeasurement) {
        let listed = Self.listedPart(of: measurement.summary)
        self.init(
            id: measurement.id, recordedAt: measurement.recordedAt, deviceID: measurement.deviceID,
            frameCount: listed.frameCount, comment: measurement.comment,
            channels: listed.channels.map { channel in
                Channel(name: channel.name, values: zip(listed.columns, channel.means).map(MainValue.init))
            })
    }

    /// The part of `summary` a list shows: its shown columns only, in `mainColumns` order.
    /// Stores keep it beside the whole summary, so a listing reads 100 bytes a row, not 1.5 KB.
    public static func listedPart(of summary: MeasurementSummary) -> MeasurementSummary {
        let shown = shownColumns(of: summary.columns)
        return MeasurementSummary(
            columns: shown.map { summary.columns[$0] },
            channels: summary.channels.map { channel in
                .init(
                    name: channel.name, means: shown.compactMap { $0 < channel.means.count ? channel.means[$0] : nil })
            },
            frameCount: summary.frameCount)
    }

    /// The indices in `columns` of the columns a list shows (see `mainColumns`).
    public static func shownColumns(of columns: [String]) -> [Int] {
        let main = mainColumns.compactMap { columns.firstIndex(of: $0) }
        return main.isEmpty ? Array(columns.indices.prefix(3)) : main
    }
}
