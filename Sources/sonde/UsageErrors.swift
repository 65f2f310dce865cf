import ArgumentParser

/// Throws a library's range problem (`OptionRanges`) as the usage error argument-parser
/// prints with the command's usage and exit status 64.
func refuse(_ problems: String?...) throws {
    if let problem = problems.compactMap({ $0 }).first { throw ValidationError(problem) }
}
