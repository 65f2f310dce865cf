import Testing

@testable import SondeApp

/// Who a request is from: the CSRF middleware's `Origin` check, and the client address a
/// trusted proxy forwards (the key of login locks and rate limits).
@Suite struct RequestOriginTests {
    @Test func originMustNameThisSite() {
        let sameOrigin = CSRFMiddleware.sameOrigin
        #expect(sameOrigin(nil, "127.0.0.1:8080", nil), "no Origin: not a browser's cross-site POST")
        #expect(sameOrigin("http://127.0.0.1:8080", "127.0.0.1:8080", nil))
        #expect(sameOrigin("https://Sonde.Lab.Example", "sonde.lab.example", nil), "case does not matter")
        #expect(!sameOrigin("http://evil.example", "127.0.0.1:8080", nil))
        #expect(!sameOrigin("http://127.0.0.1:8081", "127.0.0.1:8080", nil), "another port is another site")
        #expect(!sameOrigin("null", "127.0.0.1:8080", nil), "a sandboxed frame or a cross-site redirect")
        #expect(!sameOrigin("http://user@127.0.0.1:8080", "127.0.0.1:8080", nil))
        #expect(!sameOrigin("http://127.0.0.1:8080", nil, nil))
        // Behind a proxy that rewrites Host, the public address is this site.
        let proxied = CSRFMiddleware(publicURL: "https://sonde.lab.example/app").publicAuthority
        #expect(proxied == "sonde.lab.example")
        #expect(sameOrigin("https://sonde.lab.example", "127.0.0.1:8081", proxied))
        #expect(!sameOrigin("https://other.lab.example", "127.0.0.1:8081", proxied))
    }

    @Test func fetchMetadataMustNotNameAnotherSite() {
        #expect(CSRFMiddleware.fromThisSite(fetchSite: nil))
        #expect(CSRFMiddleware.fromThisSite(fetchSite: "same-origin"))
        #expect(CSRFMiddleware.fromThisSite(fetchSite: "none"))
        #expect(!CSRFMiddleware.fromThisSite(fetchSite: "same-site"), "a sibling subdomain")
        #expect(!CSRFMiddleware.fromThisSite(fetchSite: "cross-site"))
    }

    @Test func onlyATrustedProxyNamesTheClient() {
        let trusted: Set<String> = ["10.0.0.1", "10.0.0.2"]
        let client = ClientAddressMiddleware.client
        #expect(client(["192.168.1.7"], trusted) == "192.168.1.7")
        // The client may write anything on the left; the proxy appends what it saw.
        #expect(client(["1.2.3.4, 192.168.1.7"], trusted) == "192.168.1.7")
        #expect(client(["192.168.1.7, 10.0.0.2"], trusted) == "192.168.1.7", "a chain of trusted proxies")
        #expect(client(["1.2.3.4", "192.168.1.7"], trusted) == "192.168.1.7", "repeated header lines")
        #expect(client(["fe80::1"], trusted) == "fe80::1")
        #expect(client(["<script>"], trusted) == nil, "not an address")
        #expect(client(["10.0.0.1"], trusted) == nil, "only proxies")
        #expect(client([], trusted) == nil)
    }
}
