import Hummingbird
import Testing

@testable import SondeApp

/// What stands before every screen: the CSRF check on every POST, the static assets, HEAD,
/// an unknown address, the security headers.
@Suite struct RouterGuardTests {
    /// Every POST route, signed in, and what it does when the token is right.
    static let posts = [
        "/login", "/register", "/forgot-password", "/reset-password", "/logout", "/device/pair",
        "/measurements/new", "/measurements/new/stop", "/measurements/new/save", "/measurements/new/discard",
        "/measurements/1/delete", "/drafts/0123456789abcdef0123456789abcdef/save",
        "/drafts/0123456789abcdef0123456789abcdef/discard",
    ]

    @Test func everyPostWithoutTheRightTokenIsRefused403() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var visitor = Browser(client)
            try await visitor.get("/login")
            for token in [Browser.Token.none, .value(""), .value(String(repeating: "0", count: 64))] {
                let refused = try await visitor.post("/login", [("email", "a@b.cd"), ("password", "x")], token: token)
                #expect(refused.status == .forbidden, "\(token): \(refused.summary)")
                #expect(refused.alert == "This form has expired; reload the page and try again")
            }

            var ann = Browser(client)
            try await ann.register("ann@example.org")
            let preSession = try #require(ann.cookies[SessionMiddleware.csrfCookie])
            for path in Self.posts {
                for token in [Browser.Token.none, .value("wrong-token-wrong-token")] {
                    let refused = try await ann.post(path, token: token)
                    #expect(refused.status == .forbidden, "POST \(path) with \(token): \(refused.summary)")
                }
                // Signed in, the pre-session cookie is no token: whoever can set a cookie for
                // the site could send it with the same value in the form.
                let tossed = try await ann.post(path, token: .value(preSession))
                #expect(tossed.status == .forbidden, "POST \(path) with the pre-session token: \(tossed.summary)")
                // A script's JSON refusal.
                let script = try await ann.post(path, token: .none, headers: [.accept: "application/json"])
                #expect(
                    script.status == .forbidden
                        && script.alert == "This form has expired; reload the page and try again")
            }
            #expect(try await ann.get("/").status == .ok, "a refused POST ended the session")

            // Another site's form, even with the right token, and the token in the script's header.
            for headers: HTTPFields in [[.origin: "http://evil.example"], [.origin: "null"]] {
                #expect(try await ann.post("/logout", headers: headers).status == .forbidden, "\(headers)")
            }
            var crossSite = HTTPFields()
            crossSite[try #require(CSRFMiddleware.fetchSiteHeader)] = "cross-site"
            #expect(try await ann.post("/logout", headers: crossSite).status == .forbidden)
            var header = HTTPFields()
            header[try #require(CSRFMiddleware.tokenHeader)] = ann.csrf
            header[.origin] = "http://localhost"
            let out = try await ann.post("/logout", token: .none, headers: header)
            #expect(out.status == .seeOther && out.location == "/login?notice=logged-out", "\(out.summary)")
        }
    }

    @Test func assetsHeadAndAnUnknownAddress() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var browser = Browser(client)
            for (path, type, body) in [
                ("/assets/app.css", "text/css; charset=utf-8", StaticAssets.stylesheet),
                ("/assets/app.js", "text/javascript; charset=utf-8", StaticAssets.script),
                ("/assets/icon.svg", "image/svg+xml", StaticAssets.icon),
            ] {
                let asset = try await browser.get(path)
                #expect(asset.status == .ok && asset.headers[.contentType] == type, "\(path)")
                #expect(asset.headers[.cacheControl] == "no-cache" && asset.text == body, "\(path)")
                let head = try await browser.head(path)
                #expect(head.status == .ok && head.headers[.contentType] == type && head.text.isEmpty, "HEAD \(path)")
            }
            let login = try await browser.get("/login")
            let head = try await browser.head("/login")
            #expect(
                head.status == .ok && head.text.isEmpty && head.headers[.contentType] == login.headers[.contentType])
            let main = try await browser.head("/")
            #expect(main.status == .seeOther && main.location == "/login" && main.text.isEmpty)

            let unknown = try await browser.get("/no-such-page")
            #expect(unknown.status == .notFound && unknown.text.contains("Back to the start"))
            // Every answer carries the security headers.
            for page in [login, unknown, main] {
                #expect(page.headers[.xContentTypeOptions] == "nosniff")
                #expect(page.headers[.contentSecurityPolicy] != nil)
            }
        }
    }
}
