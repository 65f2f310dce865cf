import Foundation
import Testing
import _SondeTestSupport

#if canImport(Glibc)
    import Glibc
#endif

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

    /// A command device that dies mid-capture (issue 46): the windows before its end are
    /// saved, then the error names the command's status and its stderr; the saved records
    /// are those `sonde process` gives for the samples it wrote.
    @Test func aDeviceThatFailsMidCaptureKeepsWhatCameBefore() throws {
        let user = try AccountUser()
        for result in try user.registerAndLogIn("ops@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        var bytes: [UInt8] = []
        for frame in 0..<8000 {
            let value = Float(sin(2 * Double.pi * 100 * Double(frame) / 8000))
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
        }
        let file = user.home.appendingPathComponent("probe.f32")
        try Data(bytes).write(to: file)
        let command = "cat '\(file.path)'; echo the probe came loose >&2; exit 3"
        let paired = try user.run([
            "device", "pair", "--command", command, "--rate", "8000", "--channels", "1", "--sample-type", "f32le",
        ])
        #expect(paired.status == 0, "\(paired.stderr)")
        let measured = try user.run(["measure", "--duration", "30s", "--features", "rms"])
        #expect(measured.status != 0)
        #expect(measured.stdout.hasPrefix("Saved measurement 1 "), "\(measured.stdout)")
        #expect(measured.stderr.contains("measurement 1 holds what came before"), "\(measured.stderr)")
        #expect(measured.stderr.contains("status 3") && measured.stderr.contains("the probe came loose"))
        let exported = RecordTable(csv: try user.run(["measurements", "export", "1", "--format", "csv"]).stdout)
        let processed = RecordTable(
            csv: try user.run([
                "process", file.path, "--rate", "8000", "--channels", "1", "--sample-type", "f32le", "--features",
                "rms", "--format", "csv",
            ]).stdout)
        let rms = try #require(exported.columns.firstIndex(of: "rms"))
        let expected = try #require(processed.columns.firstIndex(of: "rms"))
        #expect(exported.rows.count == processed.rows.count && exported.rows.count > 0)
        #expect(exported.rows.map { $0[rms] } == processed.rows.map { $0[expected] })
    }

    /// Ctrl-C (or SIGTERM) ends a long capture early and saves what it has: the CLI's
    /// signal wiring around SondeCapture's LiveCapture. SIGINT exits 0 after saving, SIGTERM 143.
    @Test(arguments: [(SIGINT, Int32(0)), (SIGTERM, Int32(143))])
    func aSignalEndsTheCaptureAndSavesWhatItHas(signal: Int32, status: Int32) throws {
        let user = try AccountUser()
        for result in try user.registerAndLogIn("ops@example.com") { #expect(result.status == 0, "\(result.stderr)") }
        #expect(try user.run(["device", "pair", "--seed", "4"]).status == 0)
        let process = Process()
        process.executableURL = SondeBinary.url
        process.arguments = ["measure", "--duration", "60s", "--comment", "cut short", "--features", "rms"]
        process.currentDirectoryURL = user.home
        process.environment = ProcessInfo.processInfo.environment.merging(user.environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 2.0)
        #expect(process.isRunning, "a 60 s capture still runs")
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "sonde measure did not stop after the signal")
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.hasPrefix("Saved measurement 1 ("), "\(text)")
        let exported = try user.run(["measurements", "export", "1", "--format", "csv"])
        let rows = RecordTable(csv: exported.stdout).rows.count
        // At least a second of windows (2 channels, 50 a second), far fewer than 60 s would give.
        #expect(rows >= 2 * 40 && rows < 2 * 2_000, "\(rows) records")
        #expect(try user.run(["measurements", "list"]).stdout.contains("cut short"))
    }
}
