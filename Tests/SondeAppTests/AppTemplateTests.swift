import Testing

@testable import SondeApp

/// The pieces every screen relies on: escaping, form decoding, addresses, tokens.
@Suite struct AppTemplateTests {
    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let comment = "<script>alert('x')</script> & \"quoted\""
        let inner: HTML = "<b>bold</b>"
        let page: HTML = "<p>\(comment)</p>\(inner)"
        #expect(
            page.text
                == "<p>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;</p><b>bold</b>")
    }

    @Test func anAlertRendersEscapedAndItsJSONIsSafeInAPage() {
        let alert = Alert.error("Bad <input> \"here\"\n")
        #expect(alert.html.text.contains("Bad &lt;input&gt; &quot;here&quot;"))
        #expect(alert.json == #"{"alert":{"title":"Error","message":"Bad \u003cinput> \"here\"\u000a"}}"#)
    }

    @Test func formFieldsDecodePlusPercentAndKeepTheFirstValue() {
        let form = FormFields(encoded: "email=ann%40example.com&password=a+b%2Bc&email=other&bad=%ZZ&empty=")
        #expect(form["email"] == "ann@example.com")
        #expect(form["password"] == "a b+c")
        #expect(form["bad"] == "%ZZ")
        #expect(form["empty"] == "")
        #expect(form["missing"] == "")
    }

    @Test func formFieldsDecodeUTF8() {
        #expect(FormFields(encoded: "comment=pompe+%C3%A0+eau")["comment"] == "pompe à eau")
    }

    @Test func routesSpellEveryScreensPath() {
        #expect(AppRoute.main.path == "/")
        #expect(AppRoute.mainPage(1).path == "/" && AppRoute.mainPage(3).path == "/?page=3")
        #expect(AppRoute.login.path == "/login")
        #expect(AppRoute.resetPassword(token: "a b&c").path == "/reset-password?token=a%20b%26c")
        #expect(AppRoute.measurement(.init(12)).path == "/measurements/12")
    }

    @Test func tokensCompareInFullAndCookiesAreCheckedForShape() {
        #expect(CSRFMiddleware.constantTimeEquals("abc", "abc"))
        #expect(!CSRFMiddleware.constantTimeEquals("abc", "abd"))
        #expect(!CSRFMiddleware.constantTimeEquals("abc", "abcd"))
        let fresh = RandomToken.make()
        #expect(fresh.count == 64 && fresh != RandomToken.make())
        #expect(SessionMiddleware.isToken(fresh))
        #expect(!SessionMiddleware.isToken("short"))
        #expect(!SessionMiddleware.isToken(String(repeating: "a", count: 40) + ";x"))
    }

    @Test func theCSRFTokenOfASessionIsDerivedNotTheSecret() {
        let session = WebSession(token: RandomToken.make(), account: .init(id: .init(1), email: "a@b.cd"))
        #expect(session.csrfToken != session.token)
        #expect(session.csrfToken == WebSession(token: session.token, account: session.account).csrfToken)
        #expect(SessionMiddleware.isToken(session.csrfToken))
    }

    @Test func thePolicyAllowsNoInlineScriptOrStyle() {
        let policy = SecurityHeadersMiddleware.contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'self'"))
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
        #expect(!StaticAssets.script.contains("innerHTML") && !StaticAssets.script.contains("eval("))
    }

    @Test func valuesAndTimesReadAtAGlance() {
        #expect(DisplayFormat.value(0.583_214) == "0.5832")
        #expect(DisplayFormat.value(12_345_678) == "1.235e+07")
        #expect(DisplayFormat.value(nil) == "–")
        #expect(DisplayFormat.value(.nan) == "–")
        #expect(DisplayFormat.time(0) == "1970-01-01 00:00:00 UTC")
        #expect(DisplayFormat.elapsed(65.9) == "1:05")
    }

    /// Issue 46: Main's card names a device that failed, with its error and when, escaped,
    /// and still offers a new measurement (it may be plugged back in).
    @Test func aDisconnectedDeviceCardSaysWhyAndWhen() {
        let card = MainView.deviceHTML(
            .disconnected(deviceID: "command-1 (command `x`)", message: "exited <3>", at: 61), csrf: "t"
        ).text
        #expect(card.contains("Device disconnected"))
        #expect(card.contains("Disconnected: exited &lt;3&gt;, at 1970-01-01 00:01:01 UTC"))
        #expect(card.contains("Device command-1 (command `x`)"))
        #expect(card.contains("Start new measurement"))
        #expect(
            MainView.stateKey(of: MainView.deviceHTML(.connected(deviceID: "command-1"), csrf: "t"))
                != MainView.stateKey(of: HTML(trusted: card)), "the open page replaces the card")
    }
}
