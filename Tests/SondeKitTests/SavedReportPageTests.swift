import Foundation
import SondeCore
import SondeKit
import SondeMeasurements
import Testing
import _SondeTestSupport

/// `SavedReportPage`, `sonde measurements report`'s work, in process on a scratch home: the
/// page of a saved measurement written atomically, and a feature not saved refused with the
/// columns that were.
@Suite struct SavedReportPageTests {
    @Test func thePageOfASavedMeasurement() async throws {
        let services = try LocalServices.open(environment: ServicesTests.environment("saved-report"))
        _ = try await services.session.register(email: "ops@example.com", password: "correct horse 1")
        let owner = try await services.session.requireAccount()
        let saved = try await services.measurements.save(
            MeasurementCapture(
                deviceID: "sim-pump-01", settings: "{}", comment: "after the <bearing> change", channelNames: ["ch0"],
                columns: ["rms", "kurtosis"], recordedAt: 1_800_000_000),
            records: [], for: owner)
        let output = try TestScratch.folder("saved-report").appendingPathComponent("run.html").path
        try await SavedReportPage.write(
            saved.id, features: nil, from: services.measurements, for: owner, to: output)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("after the &lt;bearing&gt; change"))
        #expect(html.contains("<h2>Measurement \(saved.id)</h2>"))
        #expect(!html.contains("class=\"spectrogram\""))

        let other = output + ".other.html"
        await #expect {
            try await SavedReportPage.write(
                saved.id, features: ["rms", "nope"], from: services.measurements, for: owner, to: other)
        } throws: { error in
            "\(error)".contains("--features: measurement \(saved.id) has no column 'nope'; it has rms,kurtosis")
        }
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
