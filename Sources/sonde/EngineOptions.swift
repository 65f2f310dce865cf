import ArgumentParser
import SondeKit
import SondePipeline

/// How the streaming engine runs over files: workers and buffer sizes.
struct EngineOptions: ParsableArguments {
    @OptionGroup var workers: WorkerOptions

    var jobs: Int { workers.jobs }

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Samples each input's ring buffer holds, 2 to 67108864 (rounded up to a power of two).", valueName: "S"))
    var ringCapacity: Int = Self.defaultRingCapacity

    /// --ring-capacity's default, also how `spectrum --envelope` tells that it was not given.
    static let defaultRingCapacity = 1 << 18

    @Flag(
        help:
            "After the run, one line on stderr: CPU seconds of the workers, reading, writing and the rest, and the serial share (what no worker spent; more --jobs gain at most its inverse)."
    )
    var cpuReport = false

    func validate() throws {
        try refuse(OptionRanges.problem(ringCapacity: ringCapacity))
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
