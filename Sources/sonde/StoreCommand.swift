import ArgumentParser
import Foundation
import SondeCore
import SondeStore

/// `sonde store ...`: the database itself, for whoever runs a lab's sonde.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Move accounts and saved measurements between databases.",
        subcommands: [Copy.self]
    )

    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy users, valid sessions and measurements from one database to another.",
            discussion: """
                Users keep their passwords and measurements their numbers. Each measurement is
                copied in one transaction; run the command again after an interruption and it
                skips what is already there. Copy while nobody writes to the target.

                URLs: sqlite:PATH (sqlite: alone is this machine's database) or
                postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=...]; the password
                also comes from PGPASSWORD or ~/.pgpass.

                Examples:
                  sonde store copy --from sqlite: --to postgres://sonde@db.lab.example/sonde
                  sonde store copy --from postgres://sonde@db.lab.example/sonde --to sqlite:/backup/sonde.sqlite
                """
        )

        @Option(name: .long, help: ArgumentHelp("The database to copy from.", valueName: "url"))
        var from: String

        @Option(
            name: .long,
            help: ArgumentHelp("The database to copy into (created and migrated if new).", valueName: "url"))
        var to: String

        func run() async throws {
            try await reportingErrors {
                let environment = ProcessInfo.processInfo.environment
                let home = try SondeHome(environment: environment)
                let source = try StoreURL(parsing: from, defaultSQLitePath: home.databasePath, environment: environment)
                let target = try StoreURL(parsing: to, defaultSQLitePath: home.databasePath, environment: environment)
                let report = try await StoreCopier.copy(from: source, to: target) { report in
                    let done = report.measurementsCopied + report.measurementsSkipped
                    if done % 100 == 0 {
                        FileHandle.standardError.write(
                            Data("copied \(done)/\(report.measurementsTotal) measurements\n".utf8))
                    }
                }
                let line =
                    "Copied \(report.users) users, \(report.sessions) sessions and \(report.measurementsCopied) measurements"
                    + " (\(report.measurementsSkipped) already there) from \(source) to \(target)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }
    }
}
