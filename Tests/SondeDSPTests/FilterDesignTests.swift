import Foundation
import SondeCore
import SondeDSP
import Testing

/// Filter design against scipy 1.17 (`butter(..., output='sos')`, `iirnotch`), and the
/// rejection of every invalid configuration.
@Suite("Filter design")
struct FilterDesignTests {
    @Test func goldenFileLoads() throws {
        let golden = try FilterFixtures.golden.get()
        #expect(golden.cases.count > 100)
        #expect(golden.input.count >= 500)
        #expect(golden.cases.allSatisfy { $0.output.count == golden.input.count })
    }

    /// Tolerance, per coefficient: 1e-10 relative. A coefficient that is zero up to rounding
    /// (|c| ≤ 1e-12 of the largest coefficient of its numerator or denominator, e.g. b1 of a
    /// band-pass section) is compared absolutely, to 1e-12 of that largest coefficient.
    /// Observed: at most ~6e-14 relative, and most designs bit-identical; what remains comes
    /// from numpy's SIMD `tan`, which differs from the C library's in the last bit.
    @Test(arguments: FilterFixtures.cases)
    func coefficientsMatchScipy(_ golden: FilterGoldenFile.Stage) throws {
        let designed = try FilterSpec(parsing: golden.spec).design(sampleRate: golden.sampleRate)
        try #require(designed.sectionCount == golden.sos.count)
        for (section, row) in golden.sos.enumerated() {
            let got = Array(designed.coefficients[(6 * section)..<(6 * section + 6)])
            for half in [0..<3, 3..<6] {
                let scale = row[half].reduce(0) { max($0, abs($1)) }
                for i in half {
                    let error = abs(got[i] - row[i])
                    let nearZero = abs(row[i]) <= 1e-12 * scale
                    let withinTolerance = nearZero ? error <= 1e-12 * scale : error <= 1e-10 * abs(row[i])
                    #expect(withinTolerance, "section \(section) coefficient \(i): \(got[i]) vs scipy \(row[i])")
                }
            }
        }
    }

    @Test func namedConstructorsDesignWhatSpecsDesign() throws {
        let rate = 44100.0
        #expect(
            try Butterworth.lowpass(order: 4, cutoff: 1000, sampleRate: rate)
                == FilterSpec(parsing: "lowpass:1000").design(sampleRate: rate))
        #expect(
            try Butterworth.highpass(order: 3, cutoff: 20, sampleRate: rate)
                == FilterSpec(parsing: "highpass:20:3").design(sampleRate: rate))
        #expect(
            try Butterworth.bandpass(order: 2, low: 300, high: 3400, sampleRate: rate)
                == FilterSpec(parsing: "bandpass:300-3400:2").design(sampleRate: rate))
        #expect(
            try Butterworth.bandstop(order: 5, low: 45, high: 55, sampleRate: rate)
                == FilterSpec(parsing: "bandstop:45-55:5").design(sampleRate: rate))
        #expect(
            try Notch.design(frequency: 50, quality: 30, sampleRate: rate)
                == FilterSpec(parsing: "notch:50").design(sampleRate: rate))
        #expect(
            try Butterworth.highpass(order: 1, cutoff: 0.5, sampleRate: rate)
                == FilterSpec(parsing: "dc").design(sampleRate: rate))
    }

    @Test func sectionCountsFollowTheOrder() throws {
        for order in 1...16 {
            #expect(
                try Butterworth.lowpass(order: order, cutoff: 100, sampleRate: 8000).sectionCount == (order + 1) / 2)
            #expect(try Butterworth.bandpass(order: order, low: 100, high: 300, sampleRate: 8000).sectionCount == order)
        }
        #expect(try Notch.design(frequency: 60, quality: 10, sampleRate: 8000).sectionCount == 1)
    }

    @Test(arguments: [
        ("lowpass:100", FilterSpec.Kind.lowpass(cutoff: 100, order: 4)),
        ("highpass:0.5:1", .highpass(cutoff: 0.5, order: 1)),
        ("bandpass:300-3400", .bandpass(low: 300, high: 3400, order: 4)),
        ("bandstop:1e2-2.5E3:16", .bandstop(low: 100, high: 2500, order: 16)),
        ("notch:50", .notch(frequency: 50, quality: 30)),
        ("notch:60:0.5", .notch(frequency: 60, quality: 0.5)),
        ("  dc\t", .dc),
    ])
    func parsesSpecsWithDefaults(_ text: String, _ expected: FilterSpec.Kind) throws {
        let spec = try FilterSpec(parsing: text)
        #expect(spec.kind == expected)
        #expect(spec.text == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func canonicalTextParsesBack() throws {
        let kinds: [FilterSpec.Kind] = [
            .lowpass(cutoff: 100, order: 4), .highpass(cutoff: 0.25, order: 2),
            .bandpass(low: 300, high: 3400.5, order: 3), .bandstop(low: 45, high: 55, order: 1),
            .notch(frequency: 50, quality: 35), .dc,
        ]
        for kind in kinds {
            let spec = FilterSpec(kind)
            #expect(try FilterSpec(parsing: spec.text).kind == kind, "\(spec.text)")
        }
        #expect(FilterSpec(.bandpass(low: 300, high: 3400, order: 2)).description == "bandpass:300-3400:2")
    }

    @Test func rejectionNamesTheStageAndTheLimit() {
        #expect {
            try FilterSpec(parsing: "lowpass:30000").design(sampleRate: 44100)
        } throws: { error in
            (error as? SondeError)?.description
                == "filter 'lowpass:30000': cutoff 30000 Hz must be below half the sample rate (22050 Hz)"
        }
    }

    /// Rejected by `init(parsing:)`: syntax, and values that are wrong at any sample rate.
    @Test(arguments: [
        ("", "empty kind"),
        ("lowpas:100", "unknown kind 'lowpas'"),
        ("LOWPASS:100", "unknown kind 'LOWPASS'"),
        ("lowpass", "expected lowpass:F[:ORDER]"),
        ("lowpass:100:4:1", "expected lowpass:F[:ORDER]"),
        ("lowpass:", "cutoff '' is not a decimal number"),
        ("lowpass:abc", "cutoff 'abc' is not a decimal number"),
        ("lowpass:nan", "cutoff 'nan' is not a decimal number"),
        ("lowpass:inf", "cutoff 'inf' is not a decimal number"),
        ("lowpass:0x10", "cutoff '0x10' is not a decimal number"),
        ("lowpass:1e999", "cutoff '1e999' is not a decimal number"),
        ("lowpass:100:2.5", "order '2.5' is not a whole number"),
        ("lowpass:100:", "order '' is not a whole number"),
        ("lowpass:0", "cutoff 0 Hz must be above 0 Hz"),
        ("highpass:-5", "cutoff -5 Hz must be above 0 Hz"),
        ("lowpass:100:0", "order 0 must be between 1 and 16"),
        ("highpass:100:17", "order 17 must be between 1 and 16"),
        ("lowpass:100:-1", "order '-1' is not a whole number"),
        ("bandpass:300", "band '300' has no '-' between its edges"),
        ("bandpass:300-", "high edge '' is not a decimal number"),
        ("bandpass:a-300", "low edge 'a' is not a decimal number"),
        ("bandpass:500-300", "low edge 500 Hz must be below high edge 300 Hz"),
        ("bandstop:300-300", "low edge 300 Hz must be below high edge 300 Hz"),
        ("bandpass:0-300", "low edge 0 Hz must be above 0 Hz"),
        ("bandpass:-100-300", "low edge -100 Hz must be above 0 Hz"),
        ("bandstop:45-55:0", "order 0 must be between 1 and 16"),
        ("bandpass:45-55:99", "order 99 must be between 1 and 16"),
        ("notch:0", "frequency 0 Hz must be above 0 Hz"),
        ("notch:50:0", "quality 0 must be above 0"),
        ("notch:50:-3", "quality -3 must be above 0"),
        ("notch:50:q", "quality 'q' is not a decimal number"),
        ("notch:50:30:1", "expected notch:F[:Q]"),
        ("dc:1", "expected dc, with no parameters"),
    ])
    func parsingRejects(_ text: String, _ expectedFragment: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        expectRejected(startingWith: "filter '\(trimmed)': ", containing: expectedFragment) {
            _ = try FilterSpec(parsing: text)
        }
    }

    /// Accepted by `init(parsing:)`, rejected once the sample rate is known.
    @Test(arguments: [
        ("lowpass:22050", 44100.0, "cutoff 22050 Hz must be below half the sample rate (22050 Hz)"),
        ("highpass:30000:2", 44100.0, "cutoff 30000 Hz must be below half the sample rate (22050 Hz)"),
        ("bandpass:300-4000", 8000.0, "high edge 4000 Hz must be below half the sample rate (4000 Hz)"),
        ("bandstop:5000-6000", 8000.0, "low edge 5000 Hz must be below half the sample rate (4000 Hz)"),
        ("notch:600", 1000.0, "frequency 600 Hz must be below half the sample rate (500 Hz)"),
        ("dc", 1.0, "dc cutoff 0.5 Hz must be below half the sample rate (0.5 Hz)"),
        ("lowpass:100", 0.0, "sample rate 0 Hz must be a positive, finite number"),
        ("notch:50", -8000.0, "sample rate -8000 Hz must be a positive, finite number"),
        ("lowpass:100", Double.nan, "sample rate nan Hz must be a positive, finite number"),
    ])
    func designRejects(_ text: String, _ sampleRate: Double, _ expectedFragment: String) throws {
        let spec = try FilterSpec(parsing: text)
        expectRejected(startingWith: "filter '\(text)': ", containing: expectedFragment) {
            _ = try spec.design(sampleRate: sampleRate)
        }
    }

    /// Specs built in code skip the parser; `design` still checks every value.
    @Test(arguments: [
        (FilterSpec.Kind.lowpass(cutoff: .infinity, order: 4), "cutoff inf Hz is not a finite frequency"),
        (.highpass(cutoff: 100, order: 0), "order 0 must be between 1 and 16"),
        (.bandpass(low: 200, high: 100, order: 2), "low edge 200 Hz must be below high edge 100 Hz"),
        (.notch(frequency: 50, quality: .nan), "quality nan is not a finite number"),
    ])
    func designRejectsKindsBuiltInCode(_ kind: FilterSpec.Kind, _ expectedFragment: String) {
        let spec = FilterSpec(kind)
        expectRejected(startingWith: "filter '\(spec.text)': ", containing: expectedFragment) {
            _ = try spec.design(sampleRate: 8000)
        }
    }

    @Test(arguments: [
        ("Butterworth lowpass: ", "order 0 must be between 1 and 16", 0),
        ("Butterworth highpass: ", "cutoff 5000 Hz must be below half the sample rate (4000 Hz)", 1),
        ("Butterworth bandpass: ", "low edge 300 Hz must be below high edge 200 Hz", 2),
        ("Butterworth bandstop: ", "sample rate 0 Hz must be a positive, finite number", 3),
        ("notch: ", "quality 0 must be above 0", 4),
    ])
    func namedConstructorsReject(_ prefix: String, _ expectedFragment: String, _ which: Int) {
        expectRejected(startingWith: prefix, containing: expectedFragment) {
            switch which {
            case 0: _ = try Butterworth.lowpass(order: 0, cutoff: 100, sampleRate: 8000)
            case 1: _ = try Butterworth.highpass(order: 2, cutoff: 5000, sampleRate: 8000)
            case 2: _ = try Butterworth.bandpass(order: 2, low: 300, high: 200, sampleRate: 8000)
            case 3: _ = try Butterworth.bandstop(order: 2, low: 100, high: 200, sampleRate: 0)
            default: _ = try Notch.design(frequency: 50, quality: 0, sampleRate: 8000)
            }
        }
    }

    @Test(
        arguments: [
            ([], "0 coefficients given; expected 6 per section"),
            ([1, 0, 0, 1, 0], "5 coefficients given; expected 6 per section"),
            ([1, 0, 0, 2, 0, 0], "section 0 has a0 = 2.0; expected 1"),
            ([1, 0, 0, 1, 0, 0, 1, .nan, 0, 1, 0, 0], "section 1 has a coefficient that is not finite"),
        ] as [([Double], String)])
    func sectionsRejectMalformedCoefficients(_ coefficients: [Double], _ expectedFragment: String) {
        expectRejected(startingWith: "second-order sections: ", containing: expectedFragment) {
            _ = try SecondOrderSections(coefficients: coefficients)
        }
    }

    private func expectRejected(
        startingWith prefix: String, containing fragment: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("accepted; expected a rejection containing \"\(fragment)\"", sourceLocation: sourceLocation)
        } catch let error as SondeError {
            #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix(prefix), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("threw \(error), not a SondeError", sourceLocation: sourceLocation)
        }
    }
}
