import ArgumentParser
import SondeBatch
import SondeCore
import SondeIO
import SondeKit

struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the per-input outputs of a dataset run (every shard's) into one output.",
        discussion: """
            Reads OUT's manifests (manifest.jsonl, or manifest-K-of-N.jsonl per shard) and writes \
            the per-input outputs in the order one `sonde process ... -o FILE` run writes them, \
            byte for byte. Every output is checked against its manifest line (size and CRC-32C) \
            first. When a shard has not run, an input failed or is not measured yet, or an \
            output is missing or damaged, it lists them on standard error, writes nothing and \
            exits with status 2.

            Examples:
              sonde process DATA --output-dir features --shard 0/2   # on one machine
              sonde process DATA --output-dir features --shard 1/2   # on another
              sonde merge features -o all.csv
            """
    )

    @Argument(help: ArgumentHelp("The --output-dir of the dataset run.", valueName: "OUT"))
    var folder: String

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Output file; '-' or none for standard output.", valueName: "FILE"))
    var output: String?

    func run() async throws {
        try await reportingErrors {
            let merge: DatasetMerge
            do {
                merge = try DatasetMerge(folder: folder)
            } catch let damaged as DatasetManifest.Damaged {
                Diagnostics.error(damaged.description)
                throw ExitCode(2)
            }
            for warning in merge.warnings { Diagnostics.note(warning) }
            if !merge.problems.isEmpty {
                for problem in merge.problems.prefix(20) { Diagnostics.error(problem) }
                if merge.problems.count > 20 { Diagnostics.error("... and \(merge.problems.count - 20) more") }
                Diagnostics.say("sonde merge: \(merge.problems.count) problems; nothing written")
                throw ExitCode(2)
            }
            let path = output == "-" ? nil : output
            let destination =
                try path.map { try OutputFile(atomicallyReplacing: $0) }
                ?? OutputFile(standardOutputFlushing: .whenFull)
            do {
                try merge.write(folder: folder, to: destination)
            } catch {
                destination.abandon()
                throw error
            }
        }
    }
}
