import ArgumentParser
import Foundation
import SondeKit

/// `--jobs`, declared once for every command that runs the pipeline.
struct WorkerOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Feature workers and inputs worked on at once, 1 to 256 (default: the number of cores); "
                + "with far more jobs than cores, fewer inputs are read and fewer long windows measured at once, "
                + "to bound memory.", valueName: "J"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        try refuse(OptionRanges.problem(jobs: jobs))
    }
}
