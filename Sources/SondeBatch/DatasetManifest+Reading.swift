import Foundation
import SondeCore

/// Reading a manifest that a kill, a full disk or a careless hand may have torn.
extension DatasetManifest {
    /// A manifest's sections, oldest first, and what was ignored to read it.
    public struct Contents: Sendable {
        public var sections: [Section] = []
        /// One line per line ignored (torn by a kill), for the user.
        public var warnings: [String] = []
    }

    /// Reads a manifest. A line that does not parse is ignored with a warning when it is
    /// the last line, or when a new `run` line follows it: a run killed while appending
    /// tears only the line it was writing, and the next run starts on a new line.
    /// Anything else would leave lines whose run, and so whose settings, are unknown.
    /// - Throws: `SondeError(.invalidInput)` naming the file and line when it is not a
    ///   sonde manifest; `DatasetManifest.Damaged` when it has lines but no readable `run`
    ///   line, or a damaged line inside a run.
    public static func read(path: String) throws -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SondeError(.io, "\(path): cannot read the manifest")
        }
        var contents = Contents()
        let lines = data.split(separator: 10, omittingEmptySubsequences: false)
        /// The number of an unreadable line that must be followed by a `run` line.
        var torn: Int?
        for (offset, line) in lines.enumerated() where !line.isEmpty {
            let number = offset + 1
            guard let type = lineType(line) else {
                let isLast = offset == lines.count - 1
                contents.warnings.append(
                    "\(path), line \(number): \(isLast ? "cut short" : "not readable") (a run killed while writing it?); ignored"
                )
                torn = number
                continue
            }
            if let tornLine = torn, type != "run" {
                throw Damaged(
                    path: path,
                    reason: "line \(tornLine) is damaged and line \(number) does not start a new run")
            }
            torn = nil
            switch type {
            case "run":
                var run = try decode(line, path, number) { try Run(reading: &$0) }
                var section = Section(run: run)
                if run.sameInputs == true, let previous = contents.sections.last {
                    section.inputs = previous.inputs
                    section.results = previous.results
                    run.inputs = previous.run.inputs
                    run.allInputs = previous.run.allInputs
                    section.run = run
                }
                contents.sections.append(section)
            case "input" where !contents.sections.isEmpty:
                contents.sections[contents.sections.count - 1].inputs.append(
                    try decode(line, path, number) { try Input(reading: &$0) })
            case "result" where !contents.sections.isEmpty:
                let result = try decode(line, path, number) { try Result(reading: &$0) }
                contents.sections[contents.sections.count - 1].results[result.index] = result
            default:
                throw SondeError(.invalidInput, "\(path), line \(number): not a sonde manifest line")
            }
        }
        if contents.sections.isEmpty, data.contains(where: { $0 != 10 }) {
            throw Damaged(path: path, reason: "it has no readable run line, so its settings are unknown")
        }
        return contents
    }

    private static func decode<T>(
        _ line: Data.SubSequence, _ path: String, _ number: Int, _ body: (inout Reader) throws -> T
    ) throws -> T {
        do {
            return try JSONText.read(line, what: "\(path), line \(number)", body)
        } catch {
            throw SondeError(.invalidInput, "\(path), line \(number): not a sonde manifest line")
        }
    }

    /// A manifest that cannot be trusted: its outputs' settings or results are unknown.
    /// The run is refused (exit status 2) rather than mixing outputs.
    public struct Damaged: Error, CustomStringConvertible {
        public var path: String
        public var reason: String

        public var description: String {
            "\(path): damaged manifest: \(reason); delete it to start the folder over (every input is then measured again)"
        }
    }
}
