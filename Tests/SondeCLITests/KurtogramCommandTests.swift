import Testing
import _SondeTestSupport

/// `sonde kurtogram`'s exit status and message for a recording shorter than the deepest
/// level needs (the kurtogram itself, its best cells against the numpy reference and its
/// output forms are `KurtogramRunTests`' in SondeKitTests).
@Suite struct KurtogramCommandTests {
    @Test func tooShortForTheLevelsSaysHowLong() throws {
        let run = try SondeBinary.run([
            "kurtogram", "kurtogram/healthy.f64", "--rate", "25600", "--sample-type", "f64le", "--levels", "12",
        ])
        #expect(run.status == 1 && run.stderr.contains("too short") && run.stderr.contains("524288"), "\(run.stderr)")
    }
}
