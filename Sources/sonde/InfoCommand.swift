import ArgumentParser
import Foundation
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
            if format == "json" {
                AccountOutput.line(JSONValue.array(infos.map(Self.json)).text)
                return
            }
            for (index, info) in infos.enumerated() {
                if index > 0 { AccountOutput.line("") }
                AccountOutput.line(Self.table(info))
            }
        }
    }

    static func table(_ info: FileInfo) -> String {
        var lines = ["\(info.path): \(info.format)" + (info.sampleRate.map { ", \($0.compactDescription) Hz" } ?? "")]
        let header = ["name", "type", "shape", "channel", "properties"]
        let rows = info.entries.map { entry in
            [
                entry.name, entry.type, entry.shape, entry.refusal.map { "no: \($0)" } ?? "yes",
                entry.properties.joined(separator: " "),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            lines.append(
                row.enumerated().map { column, text in
                    column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression))
        }
        lines += info.notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }

    static func json(_ info: FileInfo) -> JSONValue {
        .object([
            "file": .string(info.path), "format": .string(info.format), "rate": .optional(info.sampleRate),
            "entries": .array(
                info.entries.map { entry in
                    .object([
                        "name": .string(entry.name), "type": .string(entry.type), "shape": .string(entry.shape),
                        "channel": .bool(entry.refusal == nil),
                        "refusal": entry.refusal.map(JSONValue.string) ?? .null,
                        "properties": .array(entry.properties.map(JSONValue.string)),
                    ])
                }),
            "notes": .array(info.notes.map(JSONValue.string)),
        ])
    }
}
