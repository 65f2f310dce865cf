import ArgumentParser
import SondeCore
import SondeDSP
import SondePipeline

/// Window, hop and filters: the part of `PipelineOptions` a command that measures no
/// features needs (`sonde spectrum`), spelled and checked exactly as `process` does.
struct FramingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Window length N in samples: a power of two from 16 to 1048576.", valueName: "N"))
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

    /// Settings that frame and filter but measure no feature.
    func settings() throws -> PipelineSettings {
        try PipelineSettings(
            frameLength: window, hop: hop, filters: try filter.map { try FilterSpec.parse($0) }, features: [])
    }
}
