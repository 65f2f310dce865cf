import Foundation
import Testing
import _SondeTestSupport

/// `sonde measure`: the app's new-measurement screen, end to end through the binary.
@Suite struct MeasureTests {
    @Test func measureNeedsAUserAndADeviceThenSavesEveryWindow() throws {
        let user = try AccountUser()
        let notLoggedIn = try user.run(["measure", "--duration", "1s"])
        #expect(notLoggedIn.status != 0)
        #expect(notLoggedIn.stderr == "Not logged in — run sonde login\n")

        for result in try user.registerAndLogIn("ops@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        let noDevice = try user.run(["measure", "--duration", "1s"])
        #expect(noDevice.status != 0)
        #expect(noDevice.stderr.contains("Device not connected — run sonde device pair"))

        #expect(try user.run(["device", "pair", "--seed", "4"]).status == 0)
        let measured = try user.run([
            "measure", "--duration", "1s", "--comment", "after the bearing change", "--features", "rms,kurtosis",
        ])
        #expect(measured.status == 0, "\(measured.stderr)")
        #expect(measured.stdout.hasPrefix("Saved measurement 1 "))

        let list = try user.run(["measurements", "list"])
        #expect(list.stdout.contains("after the bearing change"))
        let exported = try user.run(["measurements", "export", "1", "--format", "csv"])
        let table = RecordTable(csv: exported.stdout)
        #expect(table.columns == ["time", "channel", "frame", "start", "rms", "kurtosis"])
        // The default device runs at 25.6 kHz: 1 s holds (25600 - 1024) / 512 + 1 = 49 frames, 2 channels.
        #expect(table.rows.count == 98)
        #expect(table.rows.first?[0].hasSuffix("Z") == true, "live records carry wall-clock time")
    }
}
