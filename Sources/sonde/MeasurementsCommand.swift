import ArgumentParser
import SondeKit

struct MeasurementsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measurements",
        abstract: "Browse, export and delete your saved measurements.",
        discussion: """
            Only the logged-in account's measurements are ever listed, shown, exported or \
            deleted. Exports have exactly the record format of sonde process.

            Examples:
              sonde measurements list
              sonde measurements show 3
              sonde measurements export 3 -o pump-run.csv
              sonde measurements export 3 --format ndjson
              sonde measurements export --all -o my-measurements
              sonde measurements report 3 -o pump-run.html
              sonde measurements delete 3
            """,
        subcommands: [List.self, Show.self, Export.self, Report.self, Delete.self]
    )
}

/// A measurement id argument, checked by the parser.
struct MeasurementIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The measurement's number, as sonde measurements list shows it.", valueName: "ID"))
    var id: String

    func validate() throws {
        guard MeasurementIDText.parse(id) != nil else {
            throw ValidationError("ID '\(id)': expected a positive whole number")
        }
    }
}
