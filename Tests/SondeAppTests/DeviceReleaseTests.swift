import Foundation
import SondeCapture
import SondeIO
import Testing
import _SondeTestSupport

@testable import SondeApp

/// Issue 44, item 4: the administrator (whoever can write the server's home, as for pairing)
/// frees the device from another user's capture with `sonde device release`, against a real
/// server: the capture stops, waits for its owner as a draft "stopped by the administrator",
/// and the device is free at once.
@Suite(.serialized) struct DeviceReleaseTests {
    private static func cookie(_ name: String, in headers: [String: String]) -> String? {
        for line in (headers["set-cookie"] ?? "").split(separator: "\n") where line.hasPrefix(name + "=") {
            return String(line.dropFirst(name.count + 1).prefix { $0 != ";" })
        }
        return nil
    }

    private static func token(in page: String) -> String? {
        guard let range = page.range(of: "name=\"_csrf\" value=\"") else { return nil }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func releaseStopsTheCaptureKeepsItsDraftAndFreesTheDevice() async throws {
        let home = try TestScratch.folder("sonde-app-release")
        defer { try? FileManager.default.removeItem(at: home) }
        let request = DeviceReleaseRequest(directory: home)
        let server = try await AppServer.start(
            AppConfiguration(
                host: "127.0.0.1", port: 0, environment: ["SONDE_HOME": home.path, "SONDE_SCRYPT_LOG_N": "10"],
                parquet: ParquetWriterOptions(), version: "test"))
        let port = try #require(URL(string: server.url)?.port)
        // Nothing records: the answer says so. The server's 0.2 s tick answers; beside the
        // whole suite on 2 cores it once took over 10 s (the command's default), so the test
        // waits up to 120 s: what it checks is the answer, not the tick's pace.
        #expect(try await request.request(timeout: 120) == "The device is free: no measurement was recording.")

        let login = try await RawHTTPConnection.exchange(port: port, "GET", "/login")
        let csrf = try #require(Self.cookie("sonde_csrf", in: login.headers))
        let registered = try await RawHTTPConnection.exchange(
            port: port, "POST", "/register", headers: ["Cookie": "sonde_csrf=\(csrf)"],
            form: [
                "email": "ann@example.com", "password": "a-long-password",
                "_csrf": try #require(Self.token(in: login.body)),
            ])
        let session = ["Cookie": "sonde_session=\(try #require(Self.cookie("sonde_session", in: registered.headers)))"]
        let main = try await RawHTTPConnection.exchange(port: port, "GET", "/", headers: session)
        let own = try #require(Self.token(in: main.body))
        #expect(
            try await RawHTTPConnection.exchange(
                port: port, "POST", "/device/pair", headers: session, form: ["_csrf": own]
            ).status == 303)
        let started = try await RawHTTPConnection.exchange(
            port: port, "POST", "/measurements/new", headers: session, form: ["_csrf": own])
        #expect(started.status == 303, "start answered \(started.status)")
        try await Task.sleep(for: .seconds(1))

        let answer = try await request.request(timeout: 120)
        #expect(answer.hasPrefix("Stopped the measurement of ann@example.com after "), "\(answer)")
        #expect(answer.hasSuffix("The device is free."), "\(answer)")
        let windows = Int(answer.split(separator: " ").dropFirst(6).first ?? "") ?? 0
        #expect(windows > 10, "\(answer)")
        // The owner's Main lists it, and why it ended; the device is free for anyone.
        let after = try await RawHTTPConnection.exchange(port: port, "GET", "/", headers: session).body
        #expect(after.contains("ended: stopped by the administrator"), "\(after)")
        #expect(after.contains("Device connected") && !after.contains("Device busy"))
        // Its windows are all there: the draft holds what the answer counted.
        let link = try #require(
            after.range(of: "href=\"/drafts/").map { after[$0.upperBound...].prefix { $0 != "\"" } })
        let draft = try await RawHTTPConnection.exchange(port: port, "GET", "/drafts/\(link)", headers: session).body
        #expect(draft.contains("<dd id=\"draft-frames\">\(windows)</dd>"), "\(draft)")
        #expect(draft.contains("<dd id=\"draft-reason\">stopped by the administrator</dd>"))
        // The request and its answer leave no file behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path).filter {
            $0.hasPrefix("device-release")
        }
        #expect(left.isEmpty, "\(left)")
        await server.stop()
    }

    @Test func withoutAServerTheRequestTimesOutAndIsWithdrawn() async throws {
        let home = try TestScratch.folder("sonde-app-release-none")
        defer { try? FileManager.default.removeItem(at: home) }
        await #expect(throws: (any Error).self) {
            _ = try await DeviceReleaseRequest(directory: home).request(timeout: 0.3)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path).filter {
            $0.hasPrefix("device-release")
        }
        #expect(left.isEmpty, "\(left)")
    }
}
