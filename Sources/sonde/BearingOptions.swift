import ArgumentParser
import SondeDSP

/// `--shaft-speed` and `--bearing` for the pipeline commands: the bearing columns
/// (`bpfo_db`, ...) of `sonde process`, and `sonde report`'s envelope figure.
struct BearingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--shaft-speed"), valueName: "SPEED"))
    var shaftSpeed: String?

    @Option(name: .long, help: ArgumentHelp(FeatureFamilies.help(for: "--bearing"), valueName: "B"))
    var bearing: String?
}
