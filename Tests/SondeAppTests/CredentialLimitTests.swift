import Foundation
import SondeIO
import Testing
import _SondeTestSupport

@testable import SondeApp

/// Issue 44, items 5, 7 and 11, against a real server on loopback: a pre-session cookie is no
/// CSRF token once signed in, another site's Origin is refused, password spraying and
/// registration floods are limited per client, `--trusted-proxy` names the client from
/// X-Forwarded-For (and nobody else does), one address cannot take every connection.
@Suite(.serialized) struct CredentialLimitTests {
    private func start(
        trustedProxies: [String] = [], maxConnectionsPerClient: Int = 128
    ) async throws -> (AppServer, Int, URL) {
        let home = try TestScratch.folder("sonde-app-credentials")
        let server = try await AppServer.start(
            AppConfiguration(
                host: "127.0.0.1", port: 0,
                environment: ["SONDE_HOME": home.path, "SONDE_SCRYPT_LOG_N": "10"],
                parquet: ParquetWriterOptions(), version: "test", maxConnectionsPerClient: maxConnectionsPerClient,
                trustedProxies: trustedProxies))
        let port = try #require(URL(string: server.url)?.port)
        return (server, port, home)
    }

    /// A browser's pre-session cookie and the token in the page it was served with.
    private func preSession(port: Int, from source: String? = nil) async throws -> (cookie: String, token: String) {
        let page = try await RawHTTPConnection.exchange(port: port, from: source, "GET", "/login")
        let cookie = try #require(Self.cookie("sonde_csrf", in: page.headers))
        let token = try #require(Self.token(in: page.body))
        return (cookie, token)
    }

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

    @Test func aPreSessionCookieIsNoTokenOnceSignedInAndOtherSitesAreRefused() async throws {
        let (server, port, home) = try await start()
        defer { try? FileManager.default.removeItem(at: home) }
        let (csrf, token) = try await preSession(port: port)
        let registered = try await RawHTTPConnection.exchange(
            port: port, "POST", "/register", headers: ["Cookie": "sonde_csrf=\(csrf)"],
            form: ["email": "ann@example.com", "password": "a-long-password", "_csrf": token])
        #expect(registered.status == 303)
        let session = try #require(Self.cookie("sonde_session", in: registered.headers))
        // The attacker's tossed cookie: a value they chose, sent as cookie and as field.
        let tossed = String(repeating: "ab", count: 32)
        let forged = try await RawHTTPConnection.exchange(
            port: port, "POST", "/measurements/new",
            headers: ["Cookie": "sonde_session=\(session); sonde_csrf=\(tossed)"], form: ["_csrf": tossed])
        #expect(forged.status == 403, "a tossed pre-session cookie passed CSRF: \(forged.status)")
        // The session's own token passes the check (the device is not paired: 4xx, not 403).
        let main = try await RawHTTPConnection.exchange(
            port: port, "GET", "/", headers: ["Cookie": "sonde_session=\(session)"])
        let own = try #require(Self.token(in: main.body))
        let allowed = try await RawHTTPConnection.exchange(
            port: port, "POST", "/measurements/new", headers: ["Cookie": "sonde_session=\(session)"],
            form: ["_csrf": own])
        #expect(allowed.status != 403, "the session's token was refused")
        // Another site's Origin is refused even with the right token; this site's passes.
        let crossSite = try await RawHTTPConnection.exchange(
            port: port, "POST", "/measurements/new",
            headers: ["Cookie": "sonde_session=\(session)", "Origin": "http://evil.example"], form: ["_csrf": own])
        #expect(crossSite.status == 403)
        for site in ["cross-site", "same-site"] {
            let fetched = try await RawHTTPConnection.exchange(
                port: port, "POST", "/measurements/new",
                headers: ["Cookie": "sonde_session=\(session)", "Sec-Fetch-Site": site], form: ["_csrf": own])
            #expect(fetched.status == 403, "Sec-Fetch-Site: \(site) answered \(fetched.status)")
        }
        let sameSite = try await RawHTTPConnection.exchange(
            port: port, "POST", "/measurements/new",
            headers: ["Cookie": "sonde_session=\(session)", "Origin": "http://127.0.0.1:\(port)"],
            form: ["_csrf": own])
        #expect(sameSite.status != 403)
        await server.stop()
    }

    /// Failed logins for 20 different emails from one client, then 429 with Retry-After; a
    /// trusted proxy's X-Forwarded-For separates clients, anyone else's is ignored.
    @Test func passwordSprayingIsLimitedPerClient() async throws {
        for trusted in [false, true] {
            let (server, port, home) = try await start(trustedProxies: trusted ? ["127.0.0.1"] : [])
            defer { try? FileManager.default.removeItem(at: home) }
            let (csrf, token) = try await preSession(port: port)
            func guess(_ index: Int, forwardedFor: String) async throws -> (status: Int, headers: [String: String]) {
                let answer = try await RawHTTPConnection.exchange(
                    port: port, "POST", "/login",
                    headers: ["Cookie": "sonde_csrf=\(csrf)", "X-Forwarded-For": forwardedFor],
                    form: ["email": "user\(index)@example.com", "password": "guess-guess", "_csrf": token])
                return (answer.status, answer.headers)
            }
            for index in 0..<20 {
                let answer = try await guess(index, forwardedFor: "10.0.0.5")
                #expect(answer.status == 401, "guess \(index) answered \(answer.status)")
            }
            let limited = try await guess(20, forwardedFor: "10.0.0.5")
            #expect(limited.status == 429)
            #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 > 0)
            let other = try await guess(21, forwardedFor: "10.0.0.6")
            #expect(
                other.status == (trusted ? 401 : 429),
                "another forwarded client, \(trusted ? "trusted" : "untrusted") proxy: \(other.status)")
            await server.stop()
        }
    }

    @Test func registrationsAreLimitedPerClient() async throws {
        let (server, port, home) = try await start()
        defer { try? FileManager.default.removeItem(at: home) }
        let (csrf, token) = try await preSession(port: port, from: "127.0.0.3")
        var statuses: [Int] = []
        for index in 0..<21 {
            let answer = try await RawHTTPConnection.exchange(
                port: port, from: "127.0.0.3", "POST", "/register", headers: ["Cookie": "sonde_csrf=\(csrf)"],
                form: ["email": "new\(index)@example.com", "password": "a-long-password", "_csrf": token])
            statuses.append(answer.status)
        }
        #expect(statuses.prefix(20).allSatisfy { $0 == 303 }, "\(statuses)")
        #expect(statuses.last == 429)
        let elsewhere = try await RawHTTPConnection.exchange(port: port, from: "127.0.0.4", "GET", "/register")
        #expect(elsewhere.status == 200)
        await server.stop()
    }

    /// Four connections held by 127.0.0.5: its fifth is closed at once, unanswered, while
    /// 127.0.0.6 is served.
    @Test func oneAddressCannotTakeEveryConnection() async throws {
        let (server, port, home) = try await start(maxConnectionsPerClient: 4)
        defer { try? FileManager.default.removeItem(at: home) }
        var held: [RawHTTPConnection] = []
        for _ in 0..<4 {
            let connection = try RawHTTPConnection(port: port, from: "127.0.0.5")
            connection.send("GET /login HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            held.append(connection)
        }
        try await Task.sleep(for: .milliseconds(300))
        let fifth = try RawHTTPConnection(port: port, from: "127.0.0.5")
        fifth.send("GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let started = ContinuousClock.now
        let refused = await fifth.answer()
        // Closed unanswered (a reset when the request crossed the close): no bytes, and at
        // once, not after the 30 s receive timeout.
        #expect(refused.text.isEmpty, "\(refused.text.prefix(80))")
        #expect(ContinuousClock.now - started < .seconds(20))
        let other = try await RawHTTPConnection.exchange(port: port, from: "127.0.0.6", "GET", "/login")
        #expect(other.status == 200)
        held.removeAll()
        await server.stop()
    }
}
