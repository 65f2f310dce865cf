import Foundation
import Testing
import _SondeTestSupport

/// Issue 28, findings 6 and 9: a repeated band is refused as a repeated feature is, and a
/// ring too small to run at speed is said.
@Suite struct RepeatedAndSlowOptionTests {
    @Test(arguments: ["0-100,0-100", "0-100,10-20,0-1e2"])
    func repeatedBandsAreRefused(bands: String) throws {
        let result = try SondeBinary.run(
            ["process", "sample-data/motor.wav", "--bands", bands, "-o", "/dev/null"], in: Fixtures.packageRoot)
        #expect(result.status == 1)
        #expect(result.stderr.contains("--bands: 0-100 is listed twice"), "\(result.stderr)")
    }

    @Test func tinyRingCapacityIsNoted() throws {
        let result = try SondeBinary.run(
            ["process", "sample-data/motor.wav", "--ring-capacity", "2", "--features", "rms", "-o", "/dev/null"],
            in: Fixtures.packageRoot)
        #expect(result.status == 0)
        #expect(result.stderr.contains("--ring-capacity 2: a ring this small"), "\(result.stderr)")
    }
}
