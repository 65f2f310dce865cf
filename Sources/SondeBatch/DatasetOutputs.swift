import SondeCore
public import SondeIO

/// Where each input's output goes in a dataset run: `OUT/<file column>.<extension>`.
public struct DatasetOutputs: Sendable {
    public let folder: String
    public let format: OutputFormat

    public init(folder: String, format: OutputFormat) {
        self.folder = folder
        self.format = format
    }

    /// The output's path relative to the folder. A leading `/` is dropped and `..`
    /// becomes `__`, so every output stays inside the folder.
    public func relativePath(for name: String) -> String {
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).compactMap { part -> String? in
            switch part {
            case ".": nil
            case "..": "__"
            default: String(part)
            }
        }
        let joined = parts.isEmpty ? "stdin" : parts.joined(separator: "/")
        return joined + "." + format.rawValue
    }

    public func path(for name: String) -> String {
        folder + "/" + relativePath(for: name)
    }

    /// Refuses a run whose inputs would write the same output (`a/x.wav` given twice).
    /// - Throws: `SondeError(.invalidArgument)` naming both inputs.
    public func checkDistinct(_ names: [String]) throws {
        var seen: [String: String] = [:]
        for name in names {
            let output = relativePath(for: name)
            if let other = seen.updateValue(name, forKey: output) {
                throw SondeError(
                    .invalidArgument,
                    "inputs '\(other)' and '\(name)' would both write \(folder)/\(output); give each input once")
            }
        }
    }
}
