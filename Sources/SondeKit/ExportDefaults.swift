import SondeCore
public import SondeIO
public import SondePipeline

/// What every export writes by default, for `process`, `measurements export` and the web
/// app's downloads alike: the Parquet writer's options and the footer's `sonde.version`.
/// Kept here, not in a front end, so the two front doors' files are the same bytes
/// without one passing its defaults to the other.
public enum ExportDefaults {
    /// The `sonde.version` written into Parquet footers, `created_by` and saved settings.
    public static var version: String { SondeVersion.full }

    /// The Parquet writer options of these values, or the defaults: zstd pages,
    /// `ParquetWriterOptions.defaultRowGroupRows` records per row group, `sonde.version`
    /// and (when given) `sonde.settings` in the footer.
    public static func parquet(
        compression: ParquetCompression? = nil, rowGroupRows: Int? = nil, settings: String? = nil
    ) -> ParquetWriterOptions {
        ParquetWriterOptions(
            compression: compression ?? .zstd,
            rowGroupRows: rowGroupRows ?? ParquetWriterOptions.defaultRowGroupRows,
            keyValueMetadata: [("sonde.version", version)] + (settings.map { [("sonde.settings", $0)] } ?? []),
            createdBy: "sonde version \(version)"
        )
    }

    /// `settings` as the JSON object of `sonde.settings` (`PipelineSettings.json`).
    public static func settingsJSON(_ settings: PipelineSettings) -> String {
        settings.json(version: version).text
    }

    /// The columns a report trends when none are chosen (`sonde report`, `measurements
    /// report`, the app's report page): `Feature.defaultTrends`.
    public static let reportTrends: [String] = Feature.defaultTrends.map(\.rawValue)
}
