import ArgumentParser
import SondeCore
import SondeIO
import SondeKit

struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "What a file holds, before measuring it: its format and every variable, dataset or channel.",
        discussion: """
            For a MATLAB file (v4, v5, v7, v7.3), every variable and struct field; for HDF5, \
            every group and dataset with its attributes; for TDMS, every group/channel with \
            wf_increment and wf_start_time; for sound, CSV and raw files, the channels and the \
            rate. Each line says its type and shape, and why it cannot be a channel when it \
            cannot. The names are what --variables takes.

            Examples:
              # A Case Western bearing record
              sonde info 105.mat

              # Every file of a folder's recordings, as JSON
              sonde info run1.tdms run2.h5 --format json
            """
    )

    @Argument(help: ArgumentHelp("Files to describe.", valueName: "FILE"))
    var files: [String]

    @Option(name: .long, help: ArgumentHelp("table (default) or json.", valueName: "F"))
    var format: String = "table"

    @OptionGroup(title: "Inputs") var input: InputOptions

    func validate() throws {
        guard ["table", "json"].contains(format) else {
            throw ValidationError("--format \(format): expected table or json")
        }
        guard !files.isEmpty else { throw ValidationError("expected at least one FILE") }
    }

    func run() async throws {
        try await reportingErrors {
            let infos = try files.map { try FileInfo.read(path: $0, options: input.sampleSourceOptions()) }
            guard format == "table" else {
                return AccountOutput.line(JSONValue.array(infos.map(FileInfoText.json)).text)
            }
            AccountOutput.line(infos.map(FileInfoText.table).joined(separator: "\n\n"))
        }
    }
}
