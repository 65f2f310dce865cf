/// What a capture (`sonde measure`) hands to `MeasurementService.save` besides its records.
public struct MeasurementCapture: Sendable, Equatable {
    /// The paired device's id.
    public var deviceID: String
    /// The pipeline settings (window, hop, filters, bands, features...), as JSON text.
    public var settings: String
    public var comment: String
    /// Channel names, in record order; every batch must have exactly these.
    public var channelNames: [String]
    /// Value column names (features, then `band_power:LO-HI`), as `sonde process` writes
    /// them; every batch's `columnCount` must equal their number.
    public var columns: [String]
    /// When the capture started, seconds since 1970 (nil: the moment of saving).
    public var recordedAt: Double?

    public init(
        deviceID: String, settings: String, comment: String, channelNames: [String], columns: [String],
        recordedAt: Double? = nil
    ) {
        self.deviceID = deviceID
        self.settings = settings
        self.comment = comment
        self.channelNames = channelNames
        self.columns = columns
        self.recordedAt = recordedAt
    }
}
