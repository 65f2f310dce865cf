import SondeCore
import Testing

/// `--duration` values: each unit, plain seconds, and what is refused.
@Suite struct DurationTextTests {
    @Test(arguments: [
        ("10s", 10.0), ("500ms", 0.5), ("2m", 120.0), ("1h", 3600.0), ("2.5", 2.5), ("0.25s", 0.25), ("1e3ms", 1.0),
        ("1e9", 1e9),
    ])
    func readsUnitsAndPlainSeconds(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: [
        "", "s", "ms", "0", "0s", "-1", "-5ms", "ten", "10 s", "10sec", "1d", "inf", "nan", "infs", "1e400",
    ])
    func refusesWhatIsNotAPositiveFiniteDuration(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
