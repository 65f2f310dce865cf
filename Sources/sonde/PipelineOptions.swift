import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondeKit
import SondePipeline

/// Framing, filter and feature options, shared by every command that runs the pipeline.
struct PipelineOptions: ParsableArguments {
    /// Window, hop and filters, declared once (`sonde spectrum` takes only these).
    @OptionGroup var framing: FramingOptions

    var filter: [String] { framing.filter }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Band powers to add, in Hz: LO-HI,LO-HI,... (e.g. 0-1000,12.5-40); octave and third-octave add IEC 61260-1 band levels in dB.",
            valueName: "BANDS"
        )
    )
    var bands: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Exactly the features to compute, in this order. Without the option: \(FeatureFamilies.defaultSetName), which is \(Feature.allCases.map(\.rawValue).joined(separator: ",")). Optional ones, written after the rest: \(FeatureFamilies.namedFeatures.joined(separator: ",")). --features envelope_frequency writes that one column; --features \(FeatureFamilies.defaultSetName),envelope_frequency adds it to the default set.",
            valueName: "LIST"
        ),
        completion: .list(FeatureCompletion.names)
    )
    var features: String?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--mel"), valueName: "M"))
    var mel: Int?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--mfcc"), valueName: "C"))
    var mfcc: Int?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--velocity-band"), valueName: "LO-HI"))
    var velocityBand: String?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--input-unit"), valueName: "UNIT"))
    var inputUnit: AccelerationUnit?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--velocity-unit"), valueName: "UNIT"))
    var velocityUnit: VelocityUnit?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--reference"), valueName: "R"))
    var reference: Double?

    @OptionGroup var bearingOptions: BearingOptions

    /// The validated settings (`PipelineChoice`); every problem is one line naming the option.
    func settings() throws -> PipelineSettings {
        var choice = PipelineChoice(window: framing.window, hop: framing.hop, filters: framing.filter)
        (choice.bands, choice.features, choice.mel, choice.mfcc) = (bands, features, mel, mfcc)
        (choice.velocityBand, choice.inputUnit, choice.velocityUnit) = (velocityBand, inputUnit, velocityUnit)
        (choice.reference, choice.shaftSpeed, choice.bearing) = (
            reference, bearingOptions.shaftSpeed, bearingOptions.bearing
        )
        return try choice.settings()
    }
}
