import Hummingbird
import SondeIO
import SondeMeasurements

/// Saved measurement (`/measurements/ID`): values per channel, comment, device, time;
/// Export measurement as CSV or Parquet (the bytes `sonde measurements export` writes);
/// Delete. Another user's id answers exactly as a missing one: 404.
struct MeasurementScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        let measurements = environment.measurements
        screens.get(signedIn: .measurement) { _, context, session in
            let measurement = try await measurements.show(try Self.id(context), for: session)
            return .page(MeasurementView(measurement: measurement, csrf: context.csrfToken).html)
        }
        for format in [OutputFormat.csv, .parquet] {
            screens.get(signedIn: .measurementExport(format)) { _, context, session in
                let id = try Self.id(context)
                let body = try await measurements.export(id, format: format, for: session)
                return .download(
                    body, fileName: "measurement-\(id).\(format.rawValue)",
                    contentType: format == .csv ? "text/csv; charset=utf-8" : "application/vnd.apache.parquet")
            }
        }
        // The report runs no script and carries its styles and figures inline: its policy
        // allows exactly that, and nothing from anywhere.
        screens.get(signedIn: .measurementReport) { _, context, session in
            .document(
                try await measurements.report(try Self.id(context), for: session),
                contentSecurityPolicy:
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'"
            )
        }
        screens.post(signedIn: .deleteMeasurement) { _, context, session in
            try await measurements.delete(try Self.id(context), for: session)
            return .navigate(.main, notice: .deleted)
        }
    }

    /// The id in the address; anything but a positive whole number is "not found".
    static func id(_ context: AppRequestContext) throws -> MeasurementID {
        guard let text = context.parameters.get("id"), let id = MeasurementID(text) else { throw WebError.notFound }
        return id
    }
}
