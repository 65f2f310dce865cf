import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondePipeline

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
