import SondeMeasurements
import SondeReport

/// The Saved measurement screen's view model: one loaded measurement. It has one state
/// (a missing one is 404, a delete goes to Main), so no state enum.
struct MeasurementView: Sendable {
    var measurement: SavedMeasurement
    var csrf: String

    var html: HTML {
        let id = Int(measurement.id.rawValue)
        let summary = measurement.summary
        let tables = summary.channels.map { channel -> HTML in
            let rows = summary.columns.enumerated().map { column, name -> HTML in
                let value = channel.means.indices.contains(column) ? channel.means[column] : nil
                let label: HTML = "<th scope=\"row\">\(FeatureLabel.name(name)) <code>\(name)</code></th>"
                let unit: HTML = "<td>\(FeatureLabel.unit(name))</td>"
                // A mean of exactly 0 for thd or snr_db: no window had a fundamental (docs/features.md section 5).
                if value == 0, let reason = FeatureLabel.unmeasuredReason(name) {
                    return "<tr>\(label)\(unit)<td class=\"unmeasured\">not measured: \(reason)</td></tr>"
                }
                return "<tr>\(label)\(unit)<td class=\"number\">\(DisplayFormat.value(value))</td></tr>"
            }
            return """
                <table><caption>\(channel.name)</caption>
                <thead><tr><th scope="col">Feature</th><th scope="col">Unit</th><th scope="col">Mean</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """
        }
        return PageLayout.page(
            title: "Measurement \(id)",
            content: """
                <p><a href="\(AppRoute.main.path)">Back to Main</a></p>
                <h1>Measurement \(id)</h1>
                <section class="card" aria-labelledby="details-title">
                <h2 id="details-title">Details</h2>
                <dl class="details">
                <dt>Comment</dt><dd id="comment">\(measurement.comment.isEmpty ? "(none)" : measurement.comment)</dd>
                <dt>Device</dt><dd>\(measurement.deviceID)</dd>
                <dt>Recorded</dt><dd>\(DisplayFormat.time(measurement.recordedAt))</dd>
                <dt>Windows</dt><dd>\(measurement.frameCount)</dd>
                <dt>Channels</dt><dd>\(measurement.channelNames.joined(separator: ", "))</dd>
                </dl>
                </section>
                <section aria-labelledby="export-title">
                <h2 id="export-title">Export measurement</h2>
                <div class="actions">
                <a class="button" href="\(AppRoute.measurementExport(measurement.id, .csv).path)" download>Export measurement (CSV)</a>
                <a class="button secondary" href="\(AppRoute.measurementExport(measurement.id, .parquet).path)" download>Export measurement (Parquet)</a>
                <a class="button secondary" href="\(AppRoute.measurementReport(measurement.id).path)">Report page</a>
                </div>
                </section>
                <section aria-labelledby="values-title">
                <h2 id="values-title">Values per channel</h2>
                <p class="empty">The mean of each feature over all \(measurement.frameCount) windows.</p>
                <div class="tables">\(tables)</div>
                </section>
                <section aria-labelledby="delete-title">
                <h2 id="delete-title">Delete</h2>
                \(PageLayout.confirmedAction(
                    id: "confirm-delete", button: "Delete measurement", question: "Delete measurement \(id)?",
                    detail: "Its records and comment are removed for good; export it first to keep a copy.",
                    confirm: "Delete", action: AppRoute.deleteMeasurement(measurement.id).path, csrf: csrf))
                </section>
                """)
    }
}
