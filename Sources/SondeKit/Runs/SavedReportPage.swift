public import SondeAccounts
import SondeCore
import SondeIO
public import SondeMeasurements
import SondeReport

/// `sonde measurements report`: the page of a saved measurement (its details, trends and
/// summary table from the saved per-window values) written to a file, atomically. The web
/// page of the same measurement is the same page with a link back.
public enum SavedReportPage {
    /// - Parameter features: the saved columns to draw over time; nil for the default trends
    ///   among the saved columns (a column not saved is then simply not drawn).
    /// - Throws: `SondeError(.invalidArgument)` for a feature asked for that was not saved,
    ///   naming the columns that were; the service's `.notFound`.
    public static func write(
        _ id: MeasurementID, features: [String]?, from service: any MeasurementService, for owner: Account,
        to path: String
    ) async throws {
        let (saved, batches) = try await service.records(id: id, for: owner)
        if let unknown = features?.first(where: { !saved.columns.contains($0) }) {
            throw SondeError(
                .invalidArgument,
                "--features: measurement \(id) has no column '\(unknown)'; it has \(saved.columns.joined(separator: ","))"
            )
        }
        let html = SavedMeasurementReport.html(
            measurement: saved, batches: batches, trends: features ?? ExportDefaults.reportTrends,
            madeBy: "sonde \(SondeVersion.number) (commit \(BuildTarget.commit), \(BuildTarget.name) build)")
        try OutputFile.write(Array(html.utf8), atomicallyTo: path)
    }
}
