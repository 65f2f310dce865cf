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

    /// Refuses a run whose inputs would write the same output (`a/x.wav` given twice, or
    /// two folder arguments that both hold `x.wav`).
    /// - Throws: `SondeError(.invalidArgument)` naming both inputs' paths.
    public func checkDistinct(_ inputs: [SampleInput]) throws {
        var seen: [String: SampleInput] = [:]
        for input in inputs {
            let output = relativePath(for: input.name)
            guard let other = seen.updateValue(input, forKey: output) else { continue }
            if other.path != input.path, other.name == input.name {
                throw SondeError(
                    .invalidArgument,
                    "inputs '\(other.path)' and '\(input.path)' are both named '\(input.name)' (a name is the path inside its folder argument) and would both write \(folder)/\(output); give their common parent folder instead, or run each folder into its own --output-dir"
                )
            }
            throw SondeError(
                .invalidArgument,
                "inputs '\(other.path)' and '\(input.path)' would both write \(folder)/\(output); give each input once")
        }
    }
}
