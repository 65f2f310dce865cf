import Foundation
import Hummingbird
import HummingbirdTesting
import SondeCapture
import SondeCore
import SondeIO
import SondePipeline
import Testing
import _SondeTestSupport

@testable import SondeApp

/// The app in-process: the router `sonde serve` serves, over the services `AppServer`
/// opens, in a scratch `SONDE_HOME` of its own (SQLite, the outbox, drafts, the pairing
/// file) with fast password hashing. Requests go through HummingbirdTesting's router
/// client: no socket, a few milliseconds each; Chromium is left for what only a browser shows.
struct AppHarness {
    let home: URL
    let configuration: AppConfiguration
    private(set) var environment: AppEnvironment

    /// - Parameters:
    ///   - longestCaptureSeconds: a capture's limit (`--max-capture`).
    ///   - secureCookies: `--secure-cookies` (behind a TLS proxy).
    init(longestCaptureSeconds: Double = 600, secureCookies: Bool = false) throws {
        home = try TestScratch.folder("sonde-app-router")
        configuration = AppConfiguration(
            secureCookies: secureCookies,
            environment: ["SONDE_HOME": home.path, "SONDE_SCRYPT_LOG_N": "10"], parquet: ParquetWriterOptions(),
            version: "test", reportTrends: ["rms", "peak"], longestCaptureSeconds: longestCaptureSeconds)
        let address = PublicAddress()
        address.settle("http://localhost/")
        environment = try AppServer.makeEnvironment(configuration, address: address)
    }

    /// The same app with `captures` in place of the device's: for what the simulated pump
    /// cannot show (a device that failed).
    func replacingCaptures(_ captures: any CaptureService) -> AppHarness {
        var harness = self
        harness.environment = AppEnvironment(
            accounts: environment.accounts, measurements: environment.measurements, captures: captures,
            configuration: configuration)
        return harness
    }

    /// Runs `body` against the app as the server runs it: HEAD answered as GET without a
    /// body, the server's background services (the capture tick) running beside it.
    @discardableResult
    func run<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let router = AppRouter(environment: environment).make()
        let application = Application(
            responder: HeadResponder(base: router.buildResponder()),
            services: AppServer.backgroundServices(environment))
        return try await application.test(.router, body)
    }

    /// Pairs the simulated pump as `sonde device pair` does (the same pairing file), without
    /// the handshake's wait; `MainRoutesTests` pairs once through the page.
    func pairDevice() async throws {
        var connection = FileDeviceConnection(directory: home)
        connection.handshakeMilliseconds = 0...0
        _ = try await connection.pair(
            profileText: Instrument.defaultProfile, profileSource: "default", seed: 1)
    }

    /// The newest reset message in the outbox, and the token its link carries.
    func resetToken() throws -> String {
        let outbox = home.appendingPathComponent("outbox")
        let names = try FileManager.default.contentsOfDirectory(atPath: outbox.path).sorted()
        let newest = try #require(names.last, "no message in the outbox")
        let message = try String(contentsOf: outbox.appendingPathComponent(newest), encoding: .utf8)
        return try #require(Page.first(#"Token: ([0-9a-f]+)"#, in: message), "no token in \(message)")
    }

    static let password = "correct horse battery"
}

/// One browser over the test client: its cookie jar, and the CSRF token of the last page
/// it loaded (what its forms carry).
struct Browser {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    var csrf = ""

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// What a POST sends as its CSRF token: the page's, none, or a given one.
    enum Token {
        case page
        case none
        case value(String)
    }

    @discardableResult
    mutating func get(_ path: String, headers: HTTPFields = [:]) async throws -> Page {
        try await send(.get, path, headers: headers, body: nil)
    }

    @discardableResult
    mutating func head(_ path: String) async throws -> Page {
        try await send(.head, path, headers: [:], body: nil)
    }

    /// A form's POST (`application/x-www-form-urlencoded`), with the page's token unless told.
    @discardableResult
    mutating func post(
        _ path: String, _ fields: [(String, String)] = [], token: Token = .page, headers: HTTPFields = [:]
    ) async throws -> Page {
        var fields = fields
        switch token {
        case .page: fields.append(("_csrf", csrf))
        case .value(let value): fields.append(("_csrf", value))
        case .none: break
        }
        let body = fields.map { AppRoute.queryEscaped($0.0) + "=" + AppRoute.queryEscaped($0.1) }
            .joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(.post, path, headers: headers, body: ByteBuffer(string: body))
    }

    private mutating func send(
        _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: ByteBuffer?
    ) async throws -> Page {
        var headers = headers
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        let response = try await client.executeRequest(uri: path, method: method, headers: headers, body: body)
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || line.contains("Max-Age=0") {
                cookies[name] = nil
            } else {
                cookies[name] = value
            }
        }
        let page = Page(response)
        if let token = page.csrfField { csrf = token }
        return page
    }

    /// Registers `email` (signed in on Main), then loads Main for its token.
    mutating func register(_ email: String) async throws {
        try await get(AppRoute.register.path)
        let registered = try await post(
            AppRoute.register.path, [("email", email), ("password", AppHarness.password)])
        #expect(registered.status == .seeOther && registered.location == "/", "\(registered.summary)")
        #expect(cookies[SessionMiddleware.sessionCookie] != nil, "registering set no session cookie")
        try await get(AppRoute.main.path)
    }

    /// Starts a capture on the paired device, waits for its first values, saves it with
    /// `comment`, and gives the saved measurement's id (from Main's list).
    mutating func measure(comment: String = "") async throws -> String {
        let started = try await post(AppRoute.newMeasurement.path)
        #expect(started.status == .seeOther && started.location == "/measurements/new", "\(started.summary)")
        let page = try await get(AppRoute.newMeasurement.path)
        let values = try #require(page.first(#"data-values="([^"]+)""#), "no live values' address on the page")
        try await waitForValues(values.replacingOccurrences(of: "&amp;", with: "&"))
        let saved = try await post(AppRoute.saveNewMeasurement.path, [("comment", comment)])
        #expect(saved.location == "/?notice=saved", "\(saved.summary)")
        let main = try await get(AppRoute.main.path)
        return try #require(main.first(#"href="/measurements/(\d+)""#), "no measurement listed on Main")
    }

    /// Polls the live values until at least one window came (2 s at most; 40 ms at 25.6 kHz).
    mutating func waitForValues(_ path: String) async throws {
        for _ in 0..<200 {
            let values = try await get(path)
            if let frames = values.first(#""frames":(\d+)"#).flatMap(Int.init), frames > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no window measured in 2 s")
    }
}

/// A response as the tests read it: status, headers, the body as text, and the things a
/// user sees (where it goes next, the alert, the notice).
struct Page: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let text: String

    init(_ response: TestResponse) {
        status = response.status
        headers = response.headers
        text = String(buffer: response.body)
    }

    var location: String? { headers[.location] }
    /// The alert's message, as shown (`role="alert"`), or the JSON alert's for a script.
    var alert: String? {
        (first(#"<span class="alert-message">([^<]*)</span>"#) ?? first(#""message":"([^"]*)""#)).map(Self.unescaped)
    }
    var notice: String? { first(#"<p class="notice" role="status">([^<]*)</p>"#) }
    var title: String? { first(#"<title>([^<]*) · sonde</title>"#) }
    var csrfField: String? { first(#"name="_csrf" value="([^"]*)""#) }
    var summary: String { "\(status.code) \(location ?? "") \(alert ?? "") \(text.prefix(120))" }

    /// Text as a browser shows it: the five escapes `HTML` writes undone.
    static func unescaped(_ html: String) -> String {
        html.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The first capture group of `pattern` in the body.
    func first(_ pattern: String) -> String? { Self.first(pattern, in: text) }

    static func first(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
