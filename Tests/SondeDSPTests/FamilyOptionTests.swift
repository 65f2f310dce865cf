import Foundation
import SondeCore
import Testing

@testable import SondeDSP

/// Family options: the invalid values docs/features.md section 7 and the issue name are refused
/// with the option in the message; IEC 61260-1's nominal band names.
@Suite struct FamilyOptionTests {
    static func options(
        mel: Int? = nil, mfcc: Int? = nil, velocity: (Double, Double) = (10, 1000), reference: Double = 1
    ) -> FamilyOptions {
        var options = FamilyOptions()
        options.melBands = mel
        options.mfccCount = mfcc
        options.velocityBand = Band(low: velocity.0, high: velocity.1)
        options.reference = reference
        return options
    }

    @Test(arguments: [
        (options(mel: 0), "--mel 0"), (options(mel: 257), "--mel 257"), (options(mfcc: 0), "--mfcc 0"),
        (options(mel: 12, mfcc: 13), "--mfcc 13"), (options(mfcc: 129), "--mfcc 129"),
        (options(velocity: (0, 1000)), "--velocity-band 0-1000"),
        (options(velocity: (-5, 10)), "--velocity-band -5-10"),
        (options(velocity: (50, 50)), "--velocity-band 50-50"), (options(velocity: (10, .infinity)), "--velocity-band"),
        (options(reference: 0), "--reference 0"), (options(reference: -1), "--reference -1"),
        (options(reference: .nan), "--reference"),
        (options(reference: .infinity), "--reference"),
    ])
    func invalidOptionsAreRefused(_ options: FamilyOptions, _ message: String) {
        #expect {
            try options.validate()
        } throws: { error in
            (error as? SondeError)?.message.hasPrefix(message) == true
        }
    }

    @Test(arguments: [
        options(mel: 1), options(mel: 256, mfcc: 256), options(mfcc: 128),
        options(velocity: (2, 1000), reference: 2e-5),
    ])
    func validOptionsPass(_ options: FamilyOptions) throws {
        try options.validate()
    }

    /// `--input-unit` and `--velocity-unit` scale velocity_rms only, so they need it asked for.
    @Test func unitsNeedVelocityAndScaleIt() throws {
        var options = FamilyOptions()
        #expect(options.velocityScale == 1)
        options.inputUnit = .g
        #expect {
            try options.validate()
        } throws: { error in
            (error as? SondeError)?.message.hasPrefix("--input-unit g scales velocity_rms only") == true
        }
        options.names = ["velocity_rms"]
        try options.validate()
        #expect(options.velocityScale == 9.806_65)
        options.velocityUnit = .millimetresPerSecond
        #expect(abs(options.velocityScale - 9_806.65) <= 1e-12 * 9_806.65)
        options.inputUnit = nil
        #expect(options.velocityScale == 1000)
    }

    /// IEC 61260-1's nominal mid-band frequencies, 10 Hz to 20 kHz (its table E.1).
    @Test func thirdOctaveNominalNames() {
        let standard: [Double] = [
            10, 12.5, 16, 20, 25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800,
            1000, 1250, 1600, 2000, 2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000,
        ]
        #expect((-20...13).map(OctaveBandsFamily.nominal) == standard)
        #expect(OctaveBandsFamily.nominal(-33) == 0.5)
    }

    /// The top band's upper edge is 1000·10^1.35 Hz: written at fs/2 just above it, not just below.
    @Test func topBandFitsOnlyBelowHalfTheRate() {
        let edge = 1000 * pow(10, 1.35)
        let fits = OctaveBandsFamily.bands(.octave, sampleRate: 2 * edge + 0.01, frameLength: 1024)
        let misses = OctaveBandsFamily.bands(.octave, sampleRate: 2 * edge - 0.01, frameLength: 1024)
        #expect(fits.last?.name == "octave:16000")
        #expect(misses.last?.name == "octave:8000")
    }

    @Test func bandsParseWithOctaveSets() throws {
        let request = try Band.parseRequest("third-octave,0-1000,octave")
        #expect(request.bands == [Band(low: 0, high: 1000)])
        #expect(request.octaveSets == [.octave, .thirdOctave])
        #expect(throws: SondeError.self) { try Band.parseRequest("octaves") }
    }
}
