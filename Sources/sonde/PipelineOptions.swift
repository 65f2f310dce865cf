import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
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
            "Features to compute, in this order (default all): \(Feature.allCases.map(\.rawValue).joined(separator: ",")). Optional ones, added after the rest (the default set stays when only these are listed): \(FeatureFamilies.namedFeatures.joined(separator: ",")).",
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

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--reference"), valueName: "R"))
    var reference: Double?

    /// The validated settings; every problem is one line naming the option.
    func settings() throws -> PipelineSettings {
        let selection =
            try features.map { try FeatureFamilies.parseFeatures($0) } ?? (features: Feature.allCases, names: [])
        let bandRequest = try bands.map { try Band.parseRequest($0) } ?? (bands: [], octaveSets: [])
        var families = FamilyOptions()
        families.names = selection.names
        families.melBands = mel
        families.mfccCount = mfcc
        if let velocityBand { families.velocityBand = try FeatureFamilies.parseVelocityBand(velocityBand) }
        if let reference { families.reference = reference }
        families.octaveSets = bandRequest.octaveSets
        return try PipelineSettings(
            frameLength: framing.window,
            hop: framing.hop,
            filters: try framing.filter.map { try FilterSpec.parse($0) },
            features: selection.features,
            bands: bandRequest.bands,
            families: families
        )
    }
}

/// How to read inputs whose files do not say (raw samples, header-less CSV).
/// `parsing: .unconditional` on numeric options: argument-parser would otherwise read a
/// negative value (`--rate -5`) as an option named `-5` and answer "Missing value".
struct InputOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Sample rate in Hz, 1e-9 to 1e12; overrides any rate in the file.",
            discussion: """
                Samples may reach a magnitude of 1e100: a larger CSV cell, f64 or sound-file \
                sample is an error naming its line and column or its index (its spectrum would \
                overflow). With output to standard output, records are written as they are \
                computed, so an error found late in an input comes after the records before it; \
                with -o nothing is published unless the run succeeds.
                """,
            valueName: "R"))
    var rate: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Channels interleaved in a raw input, 1 to 1024 (default 1).", valueName: "C"))
    var channels: Int?

    @Option(name: .long, help: ArgumentHelp("Read inputs as raw interleaved samples of this type.", valueName: "T"))
    var sampleType: SampleFormat?

    func validate() throws {
        try OptionRanges.check(rate: rate)
        try OptionRanges.check(channels: channels)
    }
}

/// `--jobs`, declared once for every command that runs the pipeline.
struct WorkerOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Feature workers and inputs worked on at once, 1 to 256 (default: the number of cores).", valueName: "J"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        try OptionRanges.check(jobs: jobs)
    }
}

/// How the streaming engine runs over files: workers and buffer sizes.
struct EngineOptions: ParsableArguments {
    @OptionGroup var workers: WorkerOptions

    var jobs: Int { workers.jobs }

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Samples each input's ring buffer holds, 2 to 67108864 (rounded up to a power of two).", valueName: "S"))
    var ringCapacity: Int = 1 << 18

    func validate() throws {
        try OptionRanges.check(ringCapacity: ringCapacity)
        if ringCapacity < OptionRanges.fastRingCapacity {
            Diagnostics.note(
                "--ring-capacity \(ringCapacity): a ring this small makes reading and measuring wait on each other at every few samples (--ring-capacity 2 ran 70x slower); use at least \(OptionRanges.fastRingCapacity), or leave the default (262144)"
            )
        }
    }

    func graphOptions() -> PipelineGraph.Options {
        PipelineGraph.Options(jobs: jobs, ringCapacity: ringCapacity)
    }
}
