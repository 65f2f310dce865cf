import Foundation
import Hummingbird
import Testing

@testable import SondeApp

/// Login, Register, Forgot password, Reset password and Logout through the router, in
/// process: each screen's status, where it goes next, and the alert a user reads.
@Suite struct AccountRoutesTests {
    @Test func loginShowsItsFormAndItsNoticesAndRefusesWithTheAlertShown() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var browser = Browser(client)
            let login = try await browser.get("/login")
            #expect(login.status == .ok && login.title == "Log in")
            // A browser without a session gets its pre-session token as a cookie and in the form.
            let cookie = try #require(browser.cookies[SessionMiddleware.csrfCookie])
            #expect(login.csrfField == cookie)
            #expect(try await browser.get("/login?notice=logged-out").notice == "You have been logged out.")
            #expect(try await browser.get("/login?notice=anything-else").notice == nil)

            let empty = try await browser.post("/login", [("email", ""), ("password", "")])
            #expect(empty.status == .unprocessableContent && empty.alert == "Please fill all fields")
            let unknown = try await browser.post(
                "/login", [("email", "nobody@example.org"), ("password", "wrong password")])
            #expect(unknown.status == .unauthorized && unknown.alert == "Invalid credentials")
            #expect(unknown.text.contains(#"value="nobody@example.org""#), "the email is kept in the form")
            // The page's script gets the alert as JSON, with 200.
            let script = try await browser.post(
                "/login", [("email", "nobody@example.org"), ("password", "wrong password")],
                headers: [.accept: "application/json"])
            #expect(
                script.status == .ok && script.text == #"{"alert":{"title":"Error","message":"Invalid credentials"}}"#)
            #expect(browser.cookies[SessionMiddleware.sessionCookie] == nil)
        }
    }

    /// Both cookies are out of a script's reach and not sent by other sites' forms
    /// (`HttpOnly`, `SameSite=Lax`), for the whole app (`Path=/`); `Secure` exactly when the
    /// server is told a TLS proxy serves it.
    @Test(arguments: [false, true]) func cookiesCarryTheirFlags(secure: Bool) async throws {
        let harness = try AppHarness(secureCookies: secure)
        try await harness.run { client in
            var ann = Browser(client)
            let login = try await ann.get("/login")
            try await ann.register("ann@example.org")
            try await ann.post("/logout")
            try await ann.get("/login")
            let signedIn = try await ann.post(
                "/login", [("email", "ann@example.org"), ("password", AppHarness.password)])
            #expect(signedIn.status == .seeOther)
            let csrf = try #require(login.headers[values: .setCookie].first { $0.hasPrefix("sonde_csrf=") })
            let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("sonde_session=") })
            for cookie in [csrf, session] {
                let flags = Set(
                    cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(
                    flags.contains("HttpOnly") && flags.contains("SameSite=Lax") && flags.contains("Path=/"),
                    "\(cookie)")
                #expect(flags.contains("Secure") == secure, "\(cookie)")
            }
        }
    }

    @Test func registerSignsInOnMainAndLoginAndLogoutGoWhereTheySay() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var ann = Browser(client)
            let form = try await ann.get("/register")
            #expect(form.status == .ok && form.title == "Register")
            let badEmail = try await ann.post("/register", [("email", "nope"), ("password", AppHarness.password)])
            #expect(badEmail.status == .unprocessableContent)
            #expect(badEmail.alert == "Invalid email address 'nope': expected a form like name@example.com")
            let short = try await ann.post("/register", [("email", "ann@example.org"), ("password", "short")])
            #expect(
                short.status == .unprocessableContent
                    && short.alert == "Password too short: expected at least 8 characters")

            try await ann.register("Ann@Example.org")
            let main = try await ann.get("/")
            #expect(main.status == .ok && main.title == "Main")
            #expect(main.text.contains("<h1>Welcome, Ann@Example.org!</h1>"))
            // Signed in, Login and Register go on to Main.
            for path in ["/login", "/register"] {
                let page = try await ann.get(path)
                #expect(page.status == .seeOther && page.location == "/", "\(path): \(page.summary)")
            }

            var other = Browser(client)
            try await other.get("/register")
            let taken = try await other.post(
                "/register", [("email", "ann@example.org"), ("password", AppHarness.password)])
            #expect(
                taken.status == .conflict && taken.alert == "An account already exists for this email; log in instead")

            // Logout: to Login with its notice, the cookie cleared, the session ended for good.
            let session = try #require(ann.cookies[SessionMiddleware.sessionCookie])
            let out = try await ann.post("/logout")
            #expect(out.status == .seeOther && out.location == "/login?notice=logged-out", "\(out.summary)")
            #expect(ann.cookies[SessionMiddleware.sessionCookie] == nil)
            #expect(try await ann.get("/").location == "/login")
            ann.cookies[SessionMiddleware.sessionCookie] = session
            #expect(try await ann.get("/").location == "/login", "a logged-out session still opens Main")

            // Login: the session cookie is set and Main opens.
            ann.cookies[SessionMiddleware.sessionCookie] = nil
            try await ann.get("/login")
            let wrong = try await ann.post("/login", [("email", "ann@example.org"), ("password", "wrong password")])
            #expect(wrong.status == .unauthorized && wrong.alert == "Invalid credentials")
            let login = try await ann.post("/login", [("email", "ann@example.org"), ("password", AppHarness.password)])
            #expect(login.status == .seeOther && login.location == "/", "\(login.summary)")
            #expect(ann.cookies[SessionMiddleware.sessionCookie] != nil)
            #expect(try await ann.get("/").status == .ok)
            // A script's login is told where to go, not redirected.
            var script = Browser(client)
            try await script.get("/login")
            let json = try await script.post(
                "/login", [("email", "ann@example.org"), ("password", AppHarness.password)],
                headers: [.accept: "application/json"])
            #expect(json.status == .ok && json.text == #"{"navigate":"/"}"#)
        }
    }

    @Test func forgotAndResetPasswordChangeThePasswordWithoutTellingWhoHasAnAccount() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            try await ann.post("/logout")

            let form = try await ann.get("/forgot-password")
            #expect(form.status == .ok && form.title == "Forgot password")
            for email in ["nobody@example.org", "ann@example.org"] {
                let sent = try await ann.post("/forgot-password", [("email", email)])
                #expect(sent.status == .seeOther && sent.location == "/login?notice=reset-sent", "\(sent.summary)")
            }
            #expect(
                try await ann.get("/login?notice=reset-sent").notice
                    == "If an account exists for that address, a reset link is on its way.")
            let token = try harness.resetToken()

            let reset = try await ann.get("/reset-password?token=\(token)")
            #expect(reset.status == .ok && reset.title == "Reset password")
            #expect(reset.text.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
            let bad = try await ann.post("/reset-password", [("token", "0123"), ("password", "a new password")])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.alert == "This reset link is invalid or has expired; ask for a new one")
            let changed = try await ann.post("/reset-password", [("token", token), ("password", "a new password")])
            #expect(changed.status == .seeOther && changed.location == "/login?notice=password-changed")
            #expect(try await ann.get("/login?notice=password-changed").notice == "Your password has been changed.")
            let again = try await ann.post("/reset-password", [("token", token), ("password", "another password")])
            #expect(again.status == .unprocessableContent, "a used token worked twice")

            let old = try await ann.post("/login", [("email", "ann@example.org"), ("password", AppHarness.password)])
            #expect(old.status == .unauthorized)
            let new = try await ann.post("/login", [("email", "ann@example.org"), ("password", "a new password")])
            #expect(new.status == .seeOther && new.location == "/")

            // Three messages per address in 15 minutes; the fourth is refused with Retry-After.
            var flood = Browser(client)
            try await flood.get("/forgot-password")
            for _ in 0..<2 { try await flood.post("/forgot-password", [("email", "ann@example.org")]) }
            let refused = try await flood.post("/forgot-password", [("email", "ann@example.org")])
            #expect(refused.status == .tooManyRequests, "\(refused.summary)")
            #expect(refused.alert?.hasPrefix("Too many reset requests; try again in ") == true)
            #expect(refused.headers[.retryAfter].flatMap(Int.init).map { $0 > 0 } == true)
        }
    }
}
