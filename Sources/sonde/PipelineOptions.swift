import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondePipeline

/// Framing, filter and feature options, shared by every command that runs the pipeline.
struct PipelineOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Window length N in samples: a power of two from 16 to 1048576.", valueName: "N"))
    var window: Int = 1024

    @Option(name: .long, help: ArgumentHelp("Hop H between window starts, 1...N (default N/2).", valueName: "H"))
    var hop: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Filter stage, repeatable, applied in order: lowpass:F[:ORDER], highpass:F[:ORDER], bandpass:F1-F2[:ORDER], bandstop:F1-F2[:ORDER], notch:F[:Q], dc.",
            valueName: "SPEC"
        )
    )
    var filter: [String] = []

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
            "Features to compute, in this order (default all): \(Feature.allCases.map(\.rawValue).joined(separator: ",")). Optional ones, added after the rest (the default set stays when only these are listed): \(FeatureFamilies.namedFeatures.joined(separator: ",")).",
            valueName: "LIST"
        )
    )
    var features: String?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--mel"), valueName: "M"))
    var mel: Int?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--mfcc"), valueName: "C"))
    var mfcc: Int?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--velocity-band"), valueName: "LO-HI"))
    var velocityBand: String?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--reference"), valueName: "R"))
    var reference: Double?

    /// The validated settings; every problem is one line naming the option.
    func settings() throws -> PipelineSettings {
        let selection = try features.map { try FeatureFamilies.parseFeatures($0) } ?? (features: Feature.allCases, names: [])
        let bandRequest = try bands.map { try Band.parseRequest($0) } ?? (bands: [], octaveSets: [])
        var families = FamilyOptions()
        families.names = selection.names
        families.melBands = mel
        families.mfccCount = mfcc
        if let velocityBand { families.velocityBand = try FeatureFamilies.parseVelocityBand(velocityBand) }
        if let reference { families.reference = reference }
        families.octaveSets = bandRequest.octaveSets
        return try PipelineSettings(
            frameLength: window,
            hop: hop,
            filters: try filter.map { try FilterSpec.parse($0) },
            features: selection.features,
            bands: bandRequest.bands,
            families: families
        )
    }
}

/// How to read inputs whose files do not say (raw samples, header-less CSV).
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Sample rate in Hz; overrides any rate in the file.", valueName: "R"))
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("Channels interleaved in a raw input (default 1).", valueName: "C"))
    var channels: Int?

    @Option(name: .long, help: ArgumentHelp("Read inputs as raw interleaved samples of this type.", valueName: "T"))
    var sampleType: SampleFormat?
}


/// How the streaming engine runs: workers and buffer sizes.
struct EngineOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Feature workers and files worked on at once (default: the number of cores).", valueName: "J"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: ArgumentHelp("Samples each input's ring buffer holds (rounded up to a power of two).", valueName: "S"))
    var ringCapacity: Int = 1 << 18

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs \(jobs): expected at least 1") }
        guard ringCapacity >= 2 else { throw ValidationError("--ring-capacity \(ringCapacity): expected at least 2 samples") }
    }

    func graphOptions() -> PipelineGraph.Options {
        PipelineGraph.Options(jobs: jobs, ringCapacity: ringCapacity)
    }
}
