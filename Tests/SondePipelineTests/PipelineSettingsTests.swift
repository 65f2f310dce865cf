import SondeCore
import SondeDSP
import Testing

@testable import SondePipeline

/// `PipelineSettings.featureConfiguration(sampleRate:)` and `filterDesigns(sampleRate:)`
/// keep what they made last for the next input: what they give must still be what the
/// settings and the rate ask for, after either changes (the settings are `var`s, and copies
/// share what is kept).
@Suite struct PipelineSettingsTests {
    @Test func aKeptConfigurationFollowsTheRateAndTheSettings() throws {
        var settings = try PipelineSettings(frameLength: 1024, hop: 512, features: [.rms, .kurtosis])
        settings.families.octaveSets = [.octave]
        let first = try settings.featureConfiguration(sampleRate: 48_000)
        #expect(try settings.featureConfiguration(sampleRate: 48_000) == first)
        // Another rate: other octave bands (16 Hz to 2 kHz at 8 kHz, 125 Hz to 16 kHz at 48).
        let lower = try settings.featureConfiguration(sampleRate: 8_000)
        #expect(lower.sampleRate == 8_000)
        #expect(lower.columnNames.contains("octave:16") && !lower.columnNames.contains("octave:16000"))
        #expect(first.columnNames.contains("octave:16000") && !first.columnNames.contains("octave:16"))
        #expect(try settings.featureConfiguration(sampleRate: 48_000) == first)
        // A copy changed after the first was kept: its own settings, not the kept ones.
        var copy = settings
        copy.features = [.rms]
        copy.families.melBands = 4
        let changed = try copy.featureConfiguration(sampleRate: 48_000)
        #expect(changed.features == [.rms])
        #expect(changed.columnNames.filter { $0.hasPrefix("mel_") }.count == 4)
        #expect(
            changed
                == (try FeatureConfiguration(
                    frameLength: 1024, sampleRate: 48_000, features: [.rms], bands: [], families: copy.families)))
        #expect(try settings.featureConfiguration(sampleRate: 48_000) == first)
        // A band that does not fit the rate is refused however often it is asked.
        copy.bands = [Band(low: 0, high: 6_000)]
        #expect(throws: SondeError.self) { try copy.featureConfiguration(sampleRate: 8_000) }
        #expect(throws: SondeError.self) { try copy.featureConfiguration(sampleRate: 8_000) }
        #expect(try copy.featureConfiguration(sampleRate: 48_000).bands == [Band(low: 0, high: 6_000)])
    }

    @Test func keptFilterDesignsFollowTheRateAndTheFilters() throws {
        var settings = try PipelineSettings(frameLength: 1024, filters: [try FilterSpec.parse("highpass:10")])
        let designed = { (filters: [String], rate: Double) in
            try filters.map { try FilterSpec.parse($0).design(sampleRate: rate) }
        }
        #expect(try settings.filterDesigns(sampleRate: 8_000) == designed(["highpass:10"], 8_000))
        #expect(try settings.filterDesigns(sampleRate: 8_000) == designed(["highpass:10"], 8_000))
        #expect(try settings.filterDesigns(sampleRate: 48_000) == designed(["highpass:10"], 48_000))
        var copy = settings
        copy.filters = [try FilterSpec.parse("highpass:10"), try FilterSpec.parse("lowpass:3000:2")]
        #expect(try copy.filterDesigns(sampleRate: 48_000) == designed(["highpass:10", "lowpass:3000:2"], 48_000))
        #expect(try settings.filterDesigns(sampleRate: 48_000) == designed(["highpass:10"], 48_000))
        // A stage above Nyquist is refused at every ask, by name; `validate` says the same.
        for _ in 0..<2 {
            #expect(throws: SondeError.self) { try copy.filterDesigns(sampleRate: 4_000) }
            #expect(throws: SondeError.self) { try copy.validate(sampleRate: 4_000) }
        }
        settings.filters = []
        #expect(try settings.filterDesigns(sampleRate: 48_000).isEmpty)
    }
}
