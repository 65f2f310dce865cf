import Testing

@testable import SondeApp

/// The credential forms' rate limit: `limit` in any window, then 429 with the wait until
/// the oldest request leaves it; keys apart; memory bounded by the key cap.
@Suite struct RequestRateLimitTests {
    @Test func limitPerKeyInASlidingWindow() {
        let rate = RequestRateLimit(limit: 3, window: 900)
        for second in [0.0, 10, 20] { #expect(rate.retryAfter("a", now: second) == nil) }
        #expect(rate.retryAfter("a", now: 30) == 870)
        #expect(rate.retryAfter("b", now: 30) == nil, "another key is apart")
        #expect(rate.retryAfter("a", now: 899.5) == 1)
        #expect(rate.retryAfter("a", now: 900) == nil, "the first request left the window")
        #expect(rate.retryAfter("a", now: 901) == 9)
    }

    @Test func keysAreBounded() {
        let rate = RequestRateLimit(limit: 1, window: 900, maximumKeys: 3)
        for (index, key) in ["a", "b", "c", "d"].enumerated() {
            #expect(rate.retryAfter(key, now: Double(index)) == nil)
        }
        #expect(rate.retryAfter("a", now: 10) == nil, "the idlest key was forgotten")
        #expect(rate.retryAfter("d", now: 10) == 893)
    }

    /// Failures are counted only once known (the login's spraying limit): `blocked` counts
    /// nothing, `record` counts one.
    @Test func failuresAreCountedApartFromChecks() {
        let rate = RequestRateLimit(limit: 2, window: 900)
        for _ in 0..<5 { #expect(rate.blocked("a", now: 0) == nil, "checking counts nothing") }
        rate.record("a", now: 0)
        rate.record("a", now: 100)
        #expect(rate.blocked("a", now: 200) == 700)
        #expect(rate.blocked("a", now: 899.5) == 1)
        #expect(rate.blocked("a", now: 900) == nil, "the first failure left the window")
    }

    @Test func waitsAreWordedForPeople() {
        #expect(DisplayFormat.wait(0) == "1 s")
        #expect(DisplayFormat.wait(45) == "45 s")
        #expect(DisplayFormat.wait(119) == "119 s")
        #expect(DisplayFormat.wait(120) == "2 minutes")
        #expect(DisplayFormat.wait(870) == "15 minutes")
    }
}
