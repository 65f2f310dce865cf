import SondeCore
public import SondeIO

extension SampleInputs {
    /// Refuses an output file that is one of the inputs: `process -o`, `report -o` and
    /// `spectrum -o` all replace their output atomically, and replacing an input would lose
    /// it for good before a single record is read. One check, one message, for all three.
    /// - Parameter output: the output's path; nil (standard output) passes.
    /// - Throws: `SondeError(.invalidArgument)` naming the output and the input.
    public func refuseOverwriting(_ output: String?) throws {
        if let output, let input = input(sameFileAs: output) {
            throw SondeError(
                .invalidArgument, "-o \(output) is the input '\(input.path)': writing it would destroy the input")
        }
    }
}
