import ArgumentParser
import SondeIO
import SondeKit
import SondeMeasurements

extension MeasurementsCommand {
    struct List: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List saved measurements, newest first, with a summary of their values.",
            discussion: """
                Each line: id, time (UTC), device, windows, mean RMS/peak/dominant frequency \
                per channel (or the first columns saved), comment.

                Examples:
                  sonde measurements list
                """
        )

        @OptionGroup(title: "Store") var store: StoreOptions

        func run(with services: LocalServices) async throws {
            let batches = try await services.measurements.listingBatches(
                for: services.session.requireAccount(), offset: 0, limit: nil)
            // Each batch's cells are written while the store reads the next.
            var table = ListingTable()
            for try await batch in batches { table.append(batch) }
            guard table.rowCount > 0 else {
                return AccountOutput.line("No saved measurements yet — record one with sonde measure")
            }
            // 64 KiB a write: a line at a time was 10,000 system calls for 10,000 measurements.
            try table.write(AccountOutput.write)
        }
    }

    struct Show: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one measurement: device, settings, comment and every column's mean per channel.",
            discussion: """
                Examples:
                  sonde measurements show 3
                """
        )

        @OptionGroup(title: "Store") var store: StoreOptions

        @OptionGroup var measurement: MeasurementIDArgument

        func run(with services: LocalServices) async throws {
            let id = try MeasurementIDText.require(measurement.id)
            let saved = try await services.measurements.show(id: id, for: services.session.requireAccount())
            for line in MeasurementText.details(saved) { AccountOutput.line(line) }
        }
    }

    struct Export: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a measurement's per-window records as sonde process writes them.",
            discussion: """
                With an ID: one measurement to standard output or -o OUT (written atomically). \
                With --all: every measurement of the account into the directory -o DIR \
                (default sonde-measurements), as measurement-ID.FORMAT files plus an index, \
                measurements.json, with each one's device, settings, comment and summary.

                Examples:
                  sonde measurements export 3                       # CSV to the terminal
                  sonde measurements export 3 -o run.json           # format from the extension
                  sonde measurements export 3 --format ndjson | jq .rms
                  sonde measurements export --all --format csv -o backup
                  sonde measurements export 3 -o run.parquet --compression none
                """
        )

        @OptionGroup(title: "Store") var store: StoreOptions

        @Argument(help: ArgumentHelp("The measurement's number (omit with --all).", valueName: "ID"))
        var id: String?

        @Flag(help: "Export every measurement of the account into a directory.")
        var all = false

        @Option(help: "Record format (default: from the -o extension, else csv).")
        var format: OutputFormat?

        @OptionGroup(title: "Parquet")
        var parquet: ParquetOptions

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp(
                "Output file, or with --all the directory (default: standard output / sonde-measurements).",
                valueName: "OUT")
        )
        var output: String?

        func validate() throws {
            switch (id, all) {
            case (nil, false): throw ValidationError("expected a measurement ID, or --all")
            case (.some, true): throw ValidationError("give a measurement ID or --all, not both")
            case (let id?, false) where MeasurementIDText.parse(id) == nil:
                throw ValidationError("ID '\(id)': expected a positive whole number")
            default: break
            }
        }

        func run(with services: LocalServices) async throws {
            if all {
                let directory = output ?? "sonde-measurements"
                let files = try await services.measurements.exportAll(
                    format: format ?? .csv, parquet: parquet.writerOptions(format: format ?? .csv, settings: nil),
                    for: services.session.requireAccount(), directory: directory)
                AccountOutput.line(
                    "Exported \(files.count - 1) measurements to \(directory)/ (index: \(directory)/measurements.json)"
                )
                return
            }
            let id = try MeasurementIDText.require(id ?? "")
            let outputFormat = format ?? output.flatMap(OutputFormat.init(inferredFrom:)) ?? .csv
            let parquetOptions = try parquet.writerOptions(
                format: outputFormat, settings: nil, toStandardOutput: output == nil)
            let destination =
                try output.map { try OutputFile(atomicallyReplacing: $0) }
                ?? OutputFile(standardOutputFlushing: .whenFull)
            try await services.measurements.export(
                id: id, format: outputFormat, parquet: parquetOptions, for: services.session.requireAccount(),
                to: destination)
        }
    }

    struct Delete: ServiceCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a measurement and its records.",
            discussion: """
                Examples:
                  sonde measurements delete 3
                """
        )

        @OptionGroup(title: "Store") var store: StoreOptions

        @OptionGroup var measurement: MeasurementIDArgument

        func run(with services: LocalServices) async throws {
            let id = try MeasurementIDText.require(measurement.id)
            try await services.measurements.delete(id: id, for: services.session.requireAccount())
            AccountOutput.line("Deleted measurement \(id).")
        }
    }
}
