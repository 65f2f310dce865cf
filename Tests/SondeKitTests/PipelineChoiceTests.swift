import SondeCore
import SondeDSP
import SondeKit
import SondePipeline
import Testing

/// `PipelineChoice`, how every measuring command reads its pipeline options, in process.
@Suite struct PipelineChoiceTests {
    @Test func theDefaultsAreEveryFeatureOnHalfOverlappingWindows() throws {
        let settings = try PipelineChoice().settings()
        #expect(settings.frameLength == 1024 && settings.hop == 512)
        #expect(settings.features == Feature.allCases)
        #expect(settings.filters.isEmpty && settings.bands.isEmpty)
    }

    @Test func everyOptionReachesTheSettings() throws {
        var choice = PipelineChoice(window: 4096, hop: 1024, filters: ["highpass:10", "dc"])
        (choice.features, choice.bands) = ("rms,kurtosis", "0-500,500-2000")
        (choice.shaftSpeed, choice.bearing) = ("1797rpm", "6205")
        let settings = try choice.settings()
        #expect(settings.frameLength == 4096 && settings.hop == 1024)
        #expect(settings.filters.count == 2)
        #expect(settings.features == [.rms, .kurtosis])
        #expect(settings.bands.map(\.low) == [0, 500] && settings.bands.map(\.high) == [500, 2000])
        // Without a bearing column the speed and bearing change no record.
        #expect(settings.families.bearing == nil && settings.families.shaftSpeed == nil)
        choice.features = "rms,bpfo_db"
        let bearing = try choice.settings().families
        #expect(bearing.shaftSpeed == (try ShaftSpeed(parsing: "1797rpm")))
        #expect(bearing.bearing == (try DefectMultiples(parsing: "6205")))
        choice.bearing = nil
        #expect(throws: SondeError.self) { _ = try choice.settings() }
    }

    @Test(arguments: [
        PipelineChoice(window: 1000), PipelineChoice(window: 1024, hop: 4096), PipelineChoice(filters: ["bogus:1"]),
    ])
    func aWrongValueIsRefused(_ choice: PipelineChoice) {
        #expect(throws: SondeError.self) { _ = try choice.settings() }
    }

    @Test func anUnknownFeatureIsRefused() {
        var choice = PipelineChoice()
        choice.features = "rms,nope"
        #expect(throws: SondeError.self) { _ = try choice.settings() }
    }
}
