import Foundation
import SondeAccounts
import SondeCore
import SondeMeasurements
import SondeReport
import Testing

/// The saved measurement's page as a person reads it (issue 44): settings as labelled
/// values, not JSON; features by name with their unit; a `thd` or `snr_db` of 0 (no
/// fundamental, docs/features.md section 5) never shown as a number; a way back in the app.
@Suite struct SavedMeasurementReportTests {
    static let columns = ["rms", "thd", "snr_db", "band_power:0-100"]
    static let settings =
        #"{"bands":["band_power:0-100"],"duration":"3s","features":["rms","thd","snr_db"],"filters":["highpass:10"],"hop":512,"rate":25600,"sonde":"0.8.0","window":1024}"#

    /// Three windows of one channel: thd never measured, snr_db measured in two (20 and 40 dB).
    static func page(back: (href: String, label: String)?) -> String {
        let saved = SavedMeasurement(
            id: MeasurementID(7), owner: UserID(1), recordedAt: 1_790_000_000, deviceID: "sim-1",
            settings: settings, comment: "after the <bearing> change", channelNames: ["x"], columns: columns,
            hop: 512, clock: .seconds(sampleRate: 25600, offset: 0),
            summary: MeasurementSummary(
                columns: columns, channels: [.init(name: "x", means: [1, 0, 20, 2])], frameCount: 3))
        let batch = RecordBatch(
            fileName: "", channelNames: ["x"], columnCount: 4, firstFrame: 0, frameCount: 3, hop: 512,
            clock: .seconds(sampleRate: 25600, offset: 0),
            values: [1, 0, 20, 2, 1, 0, 0, 2, 1, 0, 40, 2])
        return SavedMeasurementReport.html(
            measurement: saved, batches: [batch], trends: ["rms"], madeBy: "sonde test", back: back)
    }

    static func row(_ html: String, _ column: String) -> String? {
        guard let start = html.range(of: "<tr data-column=\"\(column)\">") else { return nil }
        guard let end = html[start.upperBound...].range(of: "</tr>") else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func settingsAreLabelledValuesNotJSON() {
        let html = Self.page(back: nil)
        #expect(!html.contains("{&quot;") && !html.contains("&quot;bands&quot;"))
        for (label, value) in [
            ("Sample rate", "25600 Hz"), ("Window", "1024 samples"), ("Hop", "512 samples"),
            ("Filters", "highpass:10"), ("Bands", "0–100 Hz"), ("Duration", "3s"), ("sonde version", "0.8.0"),
        ] {
            #expect(html.contains("<dt>\(label)</dt><dd>\(value)</dd>"), "\(label)")
        }
        #expect(html.contains("<dt>Columns</dt><dd>rms, thd, snr_db, band_power:0-100</dd>"))
    }

    @Test func featuresHaveNamesAndUnits() throws {
        let html = Self.page(back: nil)
        let rms = try #require(Self.row(html, "rms"))
        #expect(rms.contains("RMS <code>rms</code>") && rms.contains("<td class=\"unit\">input unit</td>"))
        let band = try #require(Self.row(html, "band_power:0-100"))
        #expect(band.contains("Band power 0–100 Hz") && band.contains("<td class=\"unit\">input unit²</td>"))
        #expect(try #require(Self.row(html, "snr_db")).contains("<td class=\"unit\">dB</td>"))
    }

    @Test func zeroThdAndSnrAreNotMeasuredValues() throws {
        let html = Self.page(back: nil)
        let thd = try #require(Self.row(html, "thd"))
        #expect(thd.contains("not measured: no fundamental found") && !thd.contains("class=\"number\""), "\(thd)")
        // snr_db: the two measured windows only (mean 30, min 20), and a note on the third.
        let snr = try #require(Self.row(html, "snr_db"))
        #expect(snr.contains("<td class=\"number\">30</td><td class=\"number\">20</td><td class=\"number\">40</td>"))
        #expect(html.contains("SNR: not measured in 1 of 3 windows (no fundamental found"))
    }

    @Test func theAppsPageLinksBackAndTheFileDoesNot() {
        #expect(!Self.page(back: nil).contains("<nav"))
        let linked = Self.page(back: ("/measurements/7", "Back to measurement 7"))
        #expect(linked.contains("<nav class=\"back\"><a href=\"/measurements/7\">Back to measurement 7</a></nav>"))
        // The rest is the file's page, byte for byte.
        #expect(
            linked.replacingOccurrences(
                of: "<nav class=\"back\"><a href=\"/measurements/7\">Back to measurement 7</a></nav>\n", with: "")
                == Self.page(back: nil))
    }

    @Test func settingsThatAreNotJSONStayReadable() {
        let rows = SavedSettingsRows.rows("window 1024, hop 512")
        #expect(rows.count == 1 && rows[0].label == "Saved settings" && rows[0].value == "window 1024, hop 512")
    }
}
