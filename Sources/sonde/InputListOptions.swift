import ArgumentParser
import SondeCore
import SondeIO

/// The inputs of a command that reads sample files: FILE arguments (files, folders,
/// quoted patterns, `-`) and `--files-from`, declared and checked once for `process`,
/// `report` and `spectrum`.
struct InputListOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp("Sample files, folders or quoted patterns, or - for standard input.", valueName: "FILE"))
    var inputs: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Also read input paths from LIST, one per line (- for standard input).", valueName: "LIST"))
    var filesFrom: String?

    @Flag(name: .long, help: "The --files-from list is NUL-separated (find -print0).")
    var null = false

    func validate() throws {
        guard !inputs.isEmpty || filesFrom != nil else {
            throw ValidationError("expected at least one FILE, folder or pattern (or --files-from LIST)")
        }
        if inputs.filter({ $0 == "-" }).count + (filesFrom == "-" ? 1 : 0) > 1 {
            throw ValidationError("standard input (-) can be read only once")
        }
        if null && filesFrom == nil {
            throw ValidationError("--null describes the --files-from list; give --files-from LIST")
        }
    }

    /// Whether standard input is among the FILE arguments.
    var readsStandardInput: Bool { inputs.contains("-") }

    /// The inputs in run order: the arguments (folders walked), then the list's.
    func sampleInputs(sampleType: SampleFormat?, excludingFolders: [String] = []) throws -> SampleInputs {
        var list = try SampleInputs(arguments: inputs, sampleType: sampleType, excludingFolders: excludingFolders)
        if let filesFrom {
            try list.addList(
                SampleInputs.readList(filesFrom), from: filesFrom == "-" ? "standard input" : filesFrom,
                nullSeparated: null)
        }
        return list
    }
}
