import Foundation
import Testing
import _SondeTestSupport

/// `sonde serve`'s options are checked before anything is opened or bound.
@Suite struct ServeOptionTests {
    @Test(arguments: ["ftp://lab.example", "sonde.lab.example", "https://lab.example/?next=1", "https://lab example"])
    func aPublicURLThatIsNotAnHTTPAddressIsRefused(url: String) throws {
        let result = try SondeBinary.run(["serve", "--public-url", url], in: Fixtures.packageRoot)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--public-url '\(url)': expected http://HOST[:PORT][/PATH]"), "\(result.stderr)")
    }
}
